// The action's second step (action.yml): reads the inputs from INPUT_* variables, runs the `ota` CLI the
// first step installed (OTA_CLI), and writes the outputs to $GITHUB_OUTPUT. Plain Node, no dependencies:
// it runs as the runner checked it out. Signing happens here, in the runner: the private key is written to
// a file of the runner's temporary folder, readable by this user only, and removed at the end.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const input = (name) => (process.env[`INPUT_${name.toUpperCase().replaceAll('-', '_')}`] ?? '').trim();
const flag = (name) => input(name).toLowerCase() === 'true';
const required = (name) => input(name) || fail(`The input ${name} is required.`);

function fail(message) {
  console.log(`::error::${message}`);
  process.exit(1);
}

function output(name, value) {
  appendFileSync(process.env.GITHUB_OUTPUT, `${name}=${String(value).replace(/\r?\n/g, ' ')}\n`);
}

function summary(text) {
  console.log(text);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${text}\n`);
}

const temp = mkdtempSync(join(process.env.RUNNER_TEMP ?? '/tmp', 'ota-'));
const ota = process.env.OTA_CLI || 'ota';
const env = {
  ...process.env,
  OTA_API_URL: required('server'),
  OTA_API_KEY: required('api-key'),
  OTA_CONFIG_DIR: join(temp, 'config'),
};
// The key never reaches a log line: the runner masks it in everything that follows.
console.log(`::add-mask::${env.OTA_API_KEY}`);

/** Runs `ota … --json`; exits with the CLI's code (3: incompatible, see --fail-if-incompatible). */
function cli(args) {
  const run = spawnSync(ota, [...args, '--json'], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) {
    rmSync(temp, { recursive: true, force: true });
    process.exit(run.status ?? 1);
  }
  return JSON.parse(run.stdout);
}

/** pr-<number> of the pull request the workflow runs for. */
function previewChannel() {
  const event = process.env.GITHUB_EVENT_PATH
    ? JSON.parse(readFileSync(process.env.GITHUB_EVENT_PATH, 'utf8'))
    : {};
  const number = event.pull_request?.number ?? /^refs\/pull\/(\d+)\//.exec(process.env.GITHUB_REF ?? '')?.[1];
  if (!number) fail('preview runs for a pull request (on: pull_request): no pull request number was found.');
  return `pr-${number}`;
}

/** What `path` is: an Expo export, a Capacitor build, a CodePush folder (zipped here) or a file. */
function kindOf(path) {
  if (!existsSync(path)) fail(`The path ${path} does not exist.`);
  if (!statSync(path).isDirectory()) return flag('capacitor') ? 'capacitor' : 'file';
  if (existsSync(join(path, 'metadata.json'))) return 'expo';
  if (flag('capacitor') || existsSync(join(path, 'index.html'))) return 'capacitor';
  return 'codepush';
}

const app = required('app');
const channel =
  flag('preview') || flag('preview-close') ? previewChannel() : input('channel') || 'production';
output('channel', channel);

if (flag('preview-close')) {
  const deleted = cli(['channels', 'delete', channel, '--app', app, '--if-exists']);
  summary(
    deleted.deleted
      ? `Deleted the preview channel ${channel}; its releases are withdrawn.`
      : `No preview channel ${channel} to delete.`,
  );
  rmSync(temp, { recursive: true, force: true });
  process.exit(0);
}

const path = required('path');
const kind = kindOf(path);
const args = ['release', '--app', app, '--channel', channel, '--rollout', input('rollout') || '100'];
for (const [name, option] of [
  ['notes', '--notes'],
  ['version', '--version'],
  ['target-binary-range', '--target-binary-range'],
  ['key-id', '--key-id'],
]) {
  if (input(name)) args.push(option, input(name));
}
if (flag('fail-if-incompatible')) args.push('--fail-if-incompatible');
if (input('private-key')) {
  const pem = join(temp, 'signing-key.pem');
  writeFileSync(pem, `${input('private-key')}\n`, { mode: 0o600 });
  args.push('--private-key', pem);
}
if (kind === 'expo') args.push('--expo-export', path, '--runtime-version', required('runtime-version'));
else if (kind === 'capacitor') args.push('--capacitor', path);
else if (kind === 'codepush') {
  // A CodePush update is the zip of the bundle folder (the bundle and its assets at the top).
  const zip = join(temp, 'codepush.zip');
  execFileSync('zip', ['-qr', zip, '.'], { cwd: path });
  args.push(zip);
} else args.push(path);

const release = cli(args);
output('release-id', release.id);
output('version', release.version);
output('download-size', release.download_size ?? release.size);
summary(`Released ${release.version} (${release.id}) to ${channel} at ${release.rollout_pct} %.`);

if (flag('preview')) {
  const lines = [`Testers' builds reach the preview channel ${channel} like this:`];
  if (kind === 'expo') {
    lines.push(
      `- Expo: a build whose app.json has updates.requestHeaders {"expo-channel-name": "${channel}"}.`,
    );
  } else if (kind === 'capacitor') {
    cli(['channels', 'self-assign', channel, 'on', '--app', app]);
    lines.push(
      `- Capacitor: the channel allows self-assignment; in the app call CapacitorUpdater.setChannel({ channel: '${channel}' }).`,
    );
  } else {
    const { deployment_keys: keys } = cli(['deployment-keys', 'list', '--app', app]);
    const key =
      keys.find((k) => k.channel === channel)?.key ??
      cli(['deployment-keys', 'create', '--app', app, '--channel', channel]).key;
    lines.push(
      `- React Native (CodePush): a build with the deployment key ${key} (CodePushDeploymentKey / codePushDeploymentKey).`,
    );
  }
  lines.push(
    `- Any app: pin a tester's device with \`ota devices pin <device-id> --channel ${channel} --app ${app}\`.`,
  );
  summary(lines.join('\n'));
}
rmSync(temp, { recursive: true, force: true });
