import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { ExpoPlatform, PushExpoRelease } from '@ota/client/types';
import { CliError } from './errors.js';

/** One platform of `metadata.json` as `npx expo export` writes it. */
export interface ExportPlatform {
  bundle: string;
  assets: Array<{ path: string; ext: string }>;
}

export interface ExpoExport {
  dir: string;
  platforms: Partial<Record<ExpoPlatform, ExportPlatform>>;
  /** `<dir>/expoConfig.json` when present (`npx expo config --type public --json`): the manifest's extra.expoClient. */
  expoClient?: Record<string, unknown>;
}

const PLATFORMS: ExpoPlatform[] = ['ios', 'android'];
const EXT = /^[A-Za-z0-9]{1,16}$/;

/**
 * Reads an export folder: `metadata.json` (`{fileMetadata: {ios, android: {bundle, assets: [{path, ext}]}}}`)
 * and, if there, `expoConfig.json`. Every path must name a file inside the folder.
 */
export async function readExpoExport(dir: string): Promise<ExpoExport> {
  const root = resolve(dir);
  let metadata: unknown;
  try {
    metadata = JSON.parse(await readFile(join(root, 'metadata.json'), 'utf8'));
  } catch {
    throw new CliError(
      `${join(dir, 'metadata.json')} is missing or not JSON: run \`npx expo export\` first.`,
    );
  }
  const fileMetadata = (metadata as { fileMetadata?: Record<string, unknown> } | null)?.fileMetadata;
  if (typeof fileMetadata !== 'object' || fileMetadata === null) {
    throw new CliError(`${join(dir, 'metadata.json')} has no fileMetadata.`);
  }
  const platforms: ExpoExport['platforms'] = {};
  for (const platform of PLATFORMS) {
    const entry = fileMetadata[platform] as { bundle?: unknown; assets?: unknown } | undefined;
    if (entry === undefined) continue;
    if (typeof entry?.bundle !== 'string' || !Array.isArray(entry.assets)) {
      throw new CliError(`metadata.json: fileMetadata.${platform} needs a bundle and an assets list.`);
    }
    const assets = entry.assets.map((a: { path?: unknown; ext?: unknown }, i: number) => {
      if (typeof a?.path !== 'string' || typeof a.ext !== 'string' || !EXT.test(a.ext)) {
        throw new CliError(`metadata.json: fileMetadata.${platform}.assets[${i}] needs a path and an ext.`);
      }
      return { path: insideExport(root, a.path), ext: a.ext };
    });
    platforms[platform] = { bundle: insideExport(root, entry.bundle), assets };
  }
  if (Object.keys(platforms).length === 0) {
    throw new CliError('metadata.json names no ios or android files.');
  }
  let expoClient: Record<string, unknown> | undefined;
  const configPath = join(root, 'expoConfig.json');
  if (
    await stat(configPath).then(
      (s) => s.isFile(),
      () => false,
    )
  ) {
    try {
      expoClient = JSON.parse(await readFile(configPath, 'utf8'));
    } catch {
      throw new CliError(`${configPath} is not JSON.`);
    }
  }
  return { dir: root, platforms, ...(expoClient ? { expoClient } : {}) };
}

/** The file's path inside the export folder; a path leading out of it is refused. */
function insideExport(root: string, path: string): string {
  const full = resolve(root, path);
  const inside = relative(root, full);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new CliError(`metadata.json names ${path}, which is outside the export folder.`);
  }
  return full;
}

/** The request body of POST /expo/releases, given the sha256 each file was uploaded as. */
export function expoPushBody(
  exported: ExpoExport,
  uploaded: ReadonlyMap<string, string>,
  fields: Omit<PushExpoRelease, 'platforms' | 'extra'>,
): PushExpoRelease {
  const platforms: PushExpoRelease['platforms'] = {};
  for (const [platform, files] of Object.entries(exported.platforms) as Array<
    [ExpoPlatform, ExportPlatform]
  >) {
    platforms[platform] = {
      bundle: uploaded.get(files.bundle)!,
      assets: files.assets.map((a) => ({ sha256: uploaded.get(a.path)!, ext: a.ext })),
    };
  }
  return {
    ...fields,
    platforms,
    ...(exported.expoClient ? { extra: { expoClient: exported.expoClient } } : {}),
  };
}

/** Every distinct file of the export, each uploaded once. */
export function exportFiles(exported: ExpoExport): string[] {
  const files = new Set<string>();
  for (const p of Object.values(exported.platforms)) {
    files.add(p.bundle);
    for (const a of p.assets) files.add(a.path);
  }
  return [...files];
}

/** An embedded update named on the command line: its platform, bundle file and id. */
export interface EmbeddedUpdateArg {
  platform: ExpoPlatform;
  file: string;
  updateId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `--embedded-bundle ios=<file>` and `--embedded-update-id ios=<uuid>` (each once per platform) paired by
 * platform: every bundle needs its id and every id its bundle.
 */
export function embeddedUpdates(bundles: readonly string[], ids: readonly string[]): EmbeddedUpdateArg[] {
  const parse = (flag: string, values: readonly string[]) => {
    const out = new Map<ExpoPlatform, string>();
    for (const value of values) {
      const at = value.indexOf('=');
      const platform = value.slice(0, at);
      const given = value.slice(at + 1);
      if (at <= 0 || (platform !== 'ios' && platform !== 'android') || given === '')
        throw new CliError(`${flag} takes ios=<value> or android=<value>, not "${value}".`);
      if (out.has(platform)) throw new CliError(`${flag} names ${platform} twice.`);
      out.set(platform, given);
    }
    return out;
  };
  const files = parse('--embedded-bundle', bundles);
  const updateIds = parse('--embedded-update-id', ids);
  const out: EmbeddedUpdateArg[] = [];
  for (const platform of new Set([...files.keys(), ...updateIds.keys()])) {
    const file = files.get(platform);
    const updateId = updateIds.get(platform);
    if (file === undefined)
      throw new CliError(`--embedded-update-id ${platform}=… needs --embedded-bundle ${platform}=<file>.`);
    if (updateId === undefined)
      throw new CliError(
        `--embedded-bundle ${platform}=… needs --embedded-update-id ${platform}=<uuid> (the id in the binary's app.manifest).`,
      );
    if (!UUID.test(updateId))
      throw new CliError(`--embedded-update-id ${platform}: "${updateId}" is not a UUID.`);
    out.push({ platform, file, updateId: updateId.toLowerCase() });
  }
  return out;
}
