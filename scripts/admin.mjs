// `npm run admin -- <command>`: operator tasks (src/admin.ts), such as `reset-password <email>` on a
// server without SMTP_URL. Run where the API runs, with its settings; in a checkout started with
// `npm start`, the local services and development secrets are found as `npm start` finds them.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCheckoutServices, ensureDependencies } from './bootstrap.mjs';
import { buildIfStale } from './build.mjs';
import { localSecrets } from './local-secrets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const asksHelp = args.length === 0 || ['--help', '-h', 'help'].includes(args[0]);

process.chdir(root);
ensureDependencies();
// Help needs no database: print it without starting anything.
const env = asksHelp
  ? process.env
  : { ...process.env, ...(await ensureCheckoutServices()), ...localSecrets(root) };
buildIfStale(root);
const run = spawnSync(process.execPath, ['dist/src/admin.js', ...args], { cwd: root, env, stdio: 'inherit' });
process.exit(run.status ?? 1);
