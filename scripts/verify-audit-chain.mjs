#!/usr/bin/env node
// Verifies workspaces' audit hash chains with the compiled service code (run `npm run build` first).
//   npm run audit:verify -- <workspace_id> [<workspace_id> ...]
//   npm run audit:verify -- --all
// Prints one JSON report per workspace; exits 0 when every chain is intact, 1 when one is broken, 2 on
// bad usage. Reads DATABASE_URL.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const chainModule = new URL('dist/src/audit/audit.chain.js', root);
const postgresModule = new URL('dist/src/platform/postgres.js', root);

function fail(message) {
  console.error(message);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  fail('usage: npm run audit:verify -- <workspace_id>... | --all   (reads DATABASE_URL)');
}
const all = args.includes('--all');
const ids = args.filter((a) => a !== '--all');
if (!existsSync(fileURLToPath(chainModule))) fail('dist/ is missing: run `npm run build` first.');
const { isUuid } = await import('@ota/shared/ids');
for (const id of ids) if (!isUuid(id)) fail(`not a workspace id: ${id}`);
if (!process.env.DATABASE_URL) fail('DATABASE_URL is not set.');

const { verifyAuditChain } = await import(chainModule.href);
const { createPool } = await import(postgresModule.href);
const db = createPool(process.env.DATABASE_URL, 2);
let broken = 0;
try {
  const { rows } = all
    ? await db.query('SELECT id FROM workspaces ORDER BY created_at, id')
    : await db.query('SELECT id FROM workspaces WHERE id = ANY($1::uuid[])', [ids]);
  const known = new Set(rows.map((r) => r.id));
  const unknown = ids.filter((id) => !known.has(id.toLowerCase()));
  if (unknown.length > 0) fail(`unknown workspace: ${unknown.join(', ')}`);
  for (const { id } of rows) {
    const report = await verifyAuditChain(db, id);
    console.log(JSON.stringify(report));
    if (!report.ok) broken += 1;
  }
} finally {
  await db.end();
}
process.exit(broken > 0 ? 1 : 0);
