import { stat } from 'node:fs/promises';
import type { ExpoRelease, PushExpoRelease, Release } from '@ota/client/types';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { type EmbeddedUpdateArg, expoPushBody, exportFiles, readExpoExport } from '../expo-export.js';
import { type SigningKey, signDraft } from '../signing.js';
import { uploadBundle } from '../upload.js';

export interface ExpoReleaseOptions {
  appId: string;
  dir: string;
  runtimeVersion: string;
  version: string;
  channel: string;
  rollout: number;
  mandatory: boolean;
  notes: string;
  key?: SigningKey;
  /** Updates embedded in the binaries this release targets: devices still on them get a patch. */
  embedded?: EmbeddedUpdateArg[];
}

/**
 * `ota release --expo-export <dir> --runtime-version <v>`: uploads every file of the export once (the
 * service stores each by content), then pushes one release that serves each platform its own launch asset
 * and assets. With a key, each platform's manifest and the release's directive are signed here, on the
 * developer's machine, and the release exists once the signatures are stored. The caller has asked the
 * service's preflight first, so a plan gate or a taken version comes before any upload.
 */
export async function releaseExpoExport(ctx: CliContext, options: ExpoReleaseOptions): Promise<void> {
  const exported = await readExpoExport(options.dir);
  const files = exportFiles(exported);
  const uploaded = new Map<string, string>();
  let bytes = 0;
  for (const file of files) {
    const bundle = await uploadBundle(ctx.client, options.appId, file, { progress: false });
    uploaded.set(file, bundle.sha256);
    bytes += (await stat(file)).size;
  }
  const embedded: NonNullable<PushExpoRelease['embedded']> = {};
  for (const e of options.embedded ?? []) {
    if (!exported.platforms[e.platform])
      throw new CliError(`--embedded-bundle ${e.platform}: the export has no ${e.platform} bundle.`);
    const bundle = await uploadBundle(ctx.client, options.appId, e.file, { progress: false });
    embedded[e.platform] = { update_id: e.updateId, bundle: bundle.sha256 };
  }
  const body = expoPushBody(exported, uploaded, {
    app_id: options.appId,
    version: options.version,
    runtime_version: options.runtimeVersion,
    channel: options.channel,
    rollout_pct: options.rollout,
    mandatory: options.mandatory,
    notes: options.notes,
    ...(options.key ? { key_id: options.key.keyId } : {}),
    ...(Object.keys(embedded).length > 0 ? { embedded } : {}),
  });
  const answer = await ctx.client.expo.push(body);
  let release: Release | ExpoRelease;
  if ('status' in answer && answer.status === 'awaiting_signatures') {
    release = await ctx.client.modules.sign(answer.id, signDraft(answer, options.key!));
  } else {
    release = answer as ExpoRelease;
  }
  const platforms = Object.keys(exported.platforms);
  const signed = options.key !== undefined;
  ctx.out.result({ ...release, expo: { platforms, signed }, files: files.length }, () => {
    ctx.out.line(
      `Released ${release.version} (runtime ${options.runtimeVersion}) to ${release.channel} at ` +
        `${release.rollout_pct} %${release.mandatory ? ' (mandatory)' : ''}${signed ? ', signed' : ''}.`,
    );
    ctx.out.line(
      `Release ${release.id}: ${platforms.join(' and ')}, ${files.length} files (${bytes} bytes).`,
    );
  });
}
