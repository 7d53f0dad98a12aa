#!/usr/bin/env node
// A device for trying the service out: it asks for an update as an app with the SDK would, downloads and
// verifies the bundle, reports the download and the activation (and an error with --fail), and remembers
// what it runs in a small state file, so running it again after a release shows the next update arrive.
// It uses the built SDK package (`@ota/sdk`, built into sdk/dist by `npm start` or `npm run build`).
//
//   node scripts/simulate-device.mjs [--app <app id>] [--device <id>] [--channel <name>] [--fail]
//                                    [--api-url <url>] [--state <file>] [--json]
//
// --app defaults to the app of .ota.json (`ota init`) in this folder or one above; --api-url to
// OTA_API_URL, else the server `ota login` saved, else the server `npm start` runs in the checkout it runs
// in (.local/server.json), else http://127.0.0.1:8080. Exit 0 when the check was
// answered, 1 otherwise.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = new URL('../', import.meta.url).pathname;

const USAGE = `Usage: node scripts/simulate-device.mjs [--app <app id>] [--device <id>] [--channel <name>]
                                        [--fail] [--api-url <url>] [--state <file>] [--json]

A device for trying the service out: checks for an update as an app with the SDK would, downloads and
verifies it, and reports the download and the activation (an error with --fail).

  --app       the app (default: the app of .ota.json, written by \`ota init\`, here or above)
  --device    the device id (default demo-device-1); its state is kept in .local/
  --channel   the channel (default: the one of .ota.json, else production)
  --api-url   the service (default: OTA_API_URL, else the server \`ota login\` saved, else the one
              \`npm start\` runs in this checkout, else http://127.0.0.1:8080)
  --json      print one JSON summary
`;
let args;
try {
  ({ values: args } = parseArgs({
    options: {
      app: { type: 'string' },
      device: { type: 'string', default: 'demo-device-1' },
      channel: { type: 'string' },
      fail: { type: 'boolean', default: false },
      'api-url': { type: 'string' },
      state: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (err) {
  // An unknown or malformed option: say which, and how it is used, without a stack trace.
  process.stderr.write(`${err.message}\n\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

/** The server `npm start` runs in the checkout this folder is in (.local/server.json), as the CLI finds it. */
function checkoutApiUrl(start) {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    try {
      const { api_url: url } = JSON.parse(readFileSync(join(dir, '.local', 'server.json'), 'utf8'));
      if (typeof url === 'string' && /^https?:\/\//.test(url)) return { url, root: dir };
    } catch {}
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The server `ota login` saved (its config file, where the CLI looks: OTA_CONFIG_DIR, the checkout's
 * .local/cli, XDG_CONFIG_HOME/ota or ~/.config/ota), so the device asks the server the CLI released to.
 */
function savedApiUrl() {
  const checkout = checkoutApiUrl(process.cwd());
  const dir =
    process.env.OTA_CONFIG_DIR ||
    (checkout && join(checkout.root, '.local', 'cli')) ||
    join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'ota');
  try {
    const { api_url: url } = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    return typeof url === 'string' && url !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

function projectFile(start) {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const path = join(dir, '.ota.json');
    if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8'));
    if (dirname(dir) === dir) return undefined;
  }
}

function say(text) {
  if (!args.json) console.log(text);
}

if (!existsSync(join(ROOT, 'sdk/dist/index.js'))) {
  console.error('The SDK is not built yet: run `npm run build` (npm start does it) first.');
  process.exit(1);
}
const { OtaUpdates } = await import('@ota/sdk');

const project = projectFile(process.cwd());
const appId = args.app ?? project?.app_id;
if (!appId) {
  console.error('Which app? Give --app <app id>, or run `npx ota init` in this folder first.');
  process.exit(1);
}
const apiUrl = (
  args['api-url'] ??
  process.env.OTA_API_URL ??
  savedApiUrl() ??
  checkoutApiUrl(process.cwd())?.url ??
  'http://127.0.0.1:8080'
).replace(/\/+$/, '');
const channel = args.channel ?? project?.channel ?? 'production';
const statePath = resolve(args.state ?? join(ROOT, '.local', `simulated-device-${args.device}.json`));
const state = existsSync(statePath) ? JSON.parse(readFileSync(statePath, 'utf8')) : {};

const updates = new OtaUpdates({ apiUrl, appId, deviceId: args.device, channel, platform: 'ios' });
const summary = { device: args.device, app_id: appId, channel, running: state.running ?? null, update: null };
/** What the service's `reason` means, for a person trying the service out. */
const REFUSALS = {
  device_cap:
    "No update: the workspace's plan serves no more devices (hobby: 100). Upgrade it (`ota plan set team`) or release counted devices (`ota devices`).",
  new_device_limit:
    'No update: this address added too many new devices this hour (RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR on the server).',
};
try {
  // The channel is what the device asks for; a pin (`ota devices pin`) serves it from another one.
  say(
    `Device ${args.device} runs ${state.version ?? 'the bundle it shipped with'}; checking for an update (asking for ${channel}, unless the device is pinned)…`,
  );
  const { update, reason } = await updates.check(state.running);
  if (reason) {
    summary.reason = reason;
    say(REFUSALS[reason] ?? `No update: the service refused this device (${reason}).`);
  } else if (!update) {
    say('No update for this device (it runs the newest release it is targeted by).');
  } else {
    say(`Update offered: ${update.version} (${update.module_id}), ${update.size} bytes.`);
    const bytes = await updates.download(update);
    say(`Downloaded and verified ${bytes.byteLength} bytes (sha256 ${update.sha256.slice(0, 12)}…).`);
    await updates.reportActivation(update.module_id);
    say(`Running ${update.version} now; activation reported.`);
    if (args.fail) {
      await updates.reportError(update.module_id, 'Simulated crash on start');
      say('Reported an error, as a crash of the new bundle would.');
    }
    mkdirSync(dirname(statePath), { recursive: true });
    writeFileSync(statePath, `${JSON.stringify({ running: update.module_id, version: update.version })}\n`);
    summary.update = { module_id: update.module_id, version: update.version };
    summary.running = update.module_id;
  }
  await updates.flush();
  if (args.json) console.log(JSON.stringify(summary));
} catch (err) {
  console.error(`The device could not complete the check: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 1;
} finally {
  // The event queue keeps a retry timer; the simulated app ends here.
  updates.dispose();
}
