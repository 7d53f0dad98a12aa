import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ApiError } from '@ota/client/errors';
import type { PushPreflight, PushRelease } from '@ota/client/types';
import { isZipBytes, signCodePushZip } from '../codepush-signature.js';
import { requireCompatible } from '../compatibility-gate.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { embeddedUpdates } from '../expo-export.js';
import { checkVersionOption, defaultVersion, parsePercent, resolveApp } from '../helpers.js';
import { loadSigningKey, type SigningKey, signDraft } from '../signing.js';
import { bundleSize, uploadBundle } from '../upload.js';
import { releaseCapacitor } from './capacitor-release.js';
import { releaseExpoExport } from './expo-release.js';

/** The options of `ota release` (release.ts declares them). */
export interface ReleaseOptions {
  app?: string;
  channel?: string;
  rollout: string;
  mandatory?: boolean;
  notes: string;
  version?: string;
  fingerprint?: string;
  targetBinaryRange?: string;
  expoExport?: string;
  runtimeVersion?: string;
  privateKey?: string;
  keyId?: string;
  capacitor?: boolean;
  encrypt?: boolean;
  embeddedBundle?: string[];
  embeddedUpdateId?: string[];
  failIfIncompatible?: boolean;
}

/**
 * `ota release`: a bundle file, an Expo export (--expo-export) or a Capacitor web build (--capacitor),
 * checked with the service before upload, signed on this machine with --private-key.
 */
export async function release(
  ctx: CliContext,
  bundlePath: string | undefined,
  options: ReleaseOptions,
): Promise<void> {
  const rollout = parsePercent(options.rollout);
  const channel = options.channel ?? (await ctx.defaultChannel());
  if (options.capacitor) return capacitor(ctx, bundlePath, options, channel, rollout);
  if (options.encrypt) throw new CliError('--encrypt goes with --capacitor.');
  const key = options.privateKey
    ? await loadSigningKey(options.privateKey, options.keyId ?? 'main')
    : undefined;
  if (options.expoExport !== undefined) {
    if (bundlePath !== undefined) throw new CliError('Give either a bundle file or --expo-export, not both.');
    if (options.fingerprint)
      throw new CliError('An Expo release is matched by --runtime-version, not --fingerprint.');
    if (!options.runtimeVersion) throw new CliError('--expo-export needs --runtime-version <version>.');
    const appId = await resolveApp(ctx, options.app);
    await gate(ctx, options, appId, channel);
    const version = await preflight(ctx, { app_id: appId, channel, rollout_pct: rollout }, options.version);
    const embedded = embeddedUpdates(options.embeddedBundle ?? [], options.embeddedUpdateId ?? []);
    return releaseExpoExport(ctx, {
      appId,
      dir: options.expoExport,
      ...(embedded.length > 0 ? { embedded } : {}),
      runtimeVersion: options.runtimeVersion,
      version,
      channel,
      rollout,
      mandatory: options.mandatory === true,
      notes: options.notes,
      ...(key ? { key } : {}),
    });
  }
  if (options.embeddedBundle || options.embeddedUpdateId)
    throw new CliError('--embedded-bundle and --embedded-update-id go with --expo-export.');
  if (bundlePath === undefined)
    throw new CliError('Give the bundle file to release (or --expo-export <dir>).');
  if (options.runtimeVersion) throw new CliError('--runtime-version goes with --expo-export.');
  const appId = await resolveApp(ctx, options.app);
  await gate(ctx, options, appId, channel);
  const size = await bundleSize(bundlePath);
  const version = await preflight(
    ctx,
    { app_id: appId, channel, rollout_pct: rollout, size },
    options.version,
  );
  const progress = !ctx.json && process.stderr.isTTY === true;
  // A signed zip release carries CodePush's signature too, for React Native apps that verify it.
  const signed = key ? await codePushSigned(bundlePath, key) : undefined;
  const bundle = await uploadBundle(ctx.client, appId, signed?.path ?? bundlePath, { progress }).finally(() =>
    signed?.remove(),
  );
  const input: PushRelease = {
    app_id: appId,
    version,
    sha256: bundle.sha256,
    channel,
    rollout_pct: rollout,
    mandatory: options.mandatory === true,
    notes: options.notes,
  };
  if (options.fingerprint) input.fingerprint = options.fingerprint;
  if (options.targetBinaryRange !== undefined) input.target_binary_range = options.targetBinaryRange;
  const pushed = key ? await pushSigned(ctx, input, key) : await ctx.client.modules.push(input);
  ctx.out.result({ ...pushed, bundle }, () => {
    ctx.out.line(
      `Released ${pushed.version} to ${pushed.channel} at ${pushed.rollout_pct} %` +
        `${pushed.mandatory ? ' (mandatory)' : ''}` +
        `${pushed.target_binary_range ? ` for native versions ${pushed.target_binary_range}` : ''}.`,
    );
    ctx.out.line(`Release ${pushed.id}, bundle sha256 ${bundle.sha256} (${bundle.size} bytes).`);
  });
}

/**
 * A zip bundle released with --private-key, with `CodePush/.codepushrelease` added (codepush-signature.ts),
 * written to a temporary file to upload; undefined for a single-file bundle (CodePush signs only zips).
 */
async function codePushSigned(
  bundlePath: string,
  key: SigningKey,
): Promise<{ path: string; remove: () => Promise<void> } | undefined> {
  const bytes = await readFile(bundlePath);
  if (!isZipBytes(bytes)) return undefined;
  const { bytes: signed } = await signCodePushZip(bytes, key.key);
  const dir = await mkdtemp(join(tmpdir(), 'ota-codepush-'));
  const path = join(dir, basename(bundlePath));
  await writeFile(path, signed);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

async function capacitor(
  ctx: CliContext,
  bundlePath: string | undefined,
  options: ReleaseOptions,
  channel: string,
  rollout: number,
): Promise<void> {
  if (options.expoExport !== undefined || options.runtimeVersion)
    throw new CliError('--capacitor releases a web build; --expo-export and --runtime-version are for Expo.');
  if (options.fingerprint)
    throw new CliError(
      'Capacitor devices send no fingerprint; match native versions with --target-binary-range.',
    );
  if (options.keyId !== undefined)
    throw new CliError(
      '--key-id is not for --capacitor: the key id is derived from the key, as the plugin does.',
    );
  if (bundlePath === undefined)
    throw new CliError('Give the web build to release: its folder (index.html at the top) or a zip of it.');
  const appId = await resolveApp(ctx, options.app);
  await gate(ctx, options, appId, channel);
  return releaseCapacitor(ctx, {
    appId,
    path: bundlePath,
    channel,
    rollout,
    mandatory: options.mandatory === true,
    notes: options.notes,
    ...(options.targetBinaryRange !== undefined ? { targetBinaryRange: options.targetBinaryRange } : {}),
    ...(options.privateKey ? { privateKey: options.privateKey } : {}),
    encrypt: options.encrypt === true,
    preflight: (size) =>
      preflight(ctx, { app_id: appId, channel, rollout_pct: rollout, size }, options.version),
  });
}

/**
 * Asks the service whether the push would be taken before any byte is uploaded (plan gates, a version
 * already on the channel, the size limit), and answers the version to push. The default version is the
 * minute's; when the channel already has a release of that minute, `.2`, `.3`… is appended, while a
 * version given with --version is refused as it is.
 */
async function preflight(
  ctx: CliContext,
  push: Omit<PushPreflight, 'version'>,
  given: string | undefined,
): Promise<string> {
  const base = given === undefined ? defaultVersion() : checkVersionOption(given);
  for (let n = 1; ; n++) {
    const version = n === 1 ? base : `${base}.${n}`;
    try {
      await ctx.client.modules.preflight({ ...push, version });
      return version;
    } catch (err) {
      const taken = err instanceof ApiError && err.code === 'version_exists';
      if (!taken || given !== undefined || n >= 20) throw err;
    }
  }
}

/** A signed push: the service hands over the bytes to sign; the signature is made here and sent back. */
async function pushSigned(ctx: CliContext, input: PushRelease, key: SigningKey) {
  const draft = await ctx.client.modules.draft({ ...input, key_id: key.keyId });
  return ctx.client.modules.sign(draft.id, signDraft(draft, key));
}

/** With --fail-if-incompatible, stops before any upload when no device seen could run the release. */
async function gate(ctx: CliContext, options: ReleaseOptions, appId: string, channel: string): Promise<void> {
  if (!options.failIfIncompatible) return;
  await requireCompatible(ctx, {
    appId,
    channel,
    fingerprint: options.fingerprint,
    runtimeVersion: options.runtimeVersion,
    targetBinaryRange: options.targetBinaryRange,
  });
}
