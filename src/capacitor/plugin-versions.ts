import semver from 'semver';

/**
 * What each version of @capgo/capacitor-updater can apply (API.md, "Client versions";
 * docs/reference/client-versions.md, "Capacitor"), read from the plugin's sources at each version tag in
 * Cap-go/capacitor-updater (a commit where the release has no tag) and Capgo's own server (Cap-go/capgo
 * 4bc7d83f8, `supabase/functions/_backend/plugin_runtime/`). Every Capacitor answer is built from this
 * table; nothing else branches on `plugin_version`.
 *
 * Paths: `A/` is `android/src/main/java/ee/forgr/capacitor_updater/`, `I/` is `ios/Plugin/` before 6.14.28
 * and 7.0.38, `ios/Sources/CapacitorUpdaterPlugin/` from there on.
 */

/**
 * The unencrypted `checksum` the plugin compares with what it computes over the downloaded zip:
 * - `crc32`: 8 lower-case hex characters of the zip's CRC32, compared as strings;
 * - `sha256`: 64 lower-case hex characters of the zip's SHA-256;
 * - `none`: the plugin computes nothing and compares an empty string, so only `""` passes.
 * An encrypted release's signed checksum is sent as it was pushed, whatever this says.
 */
export type ChecksumKind = 'crc32' | 'sha256' | 'none';

/**
 * Where the device's channel lives: `server` — the plugin sends its configured `defaultChannel` (often
 * empty) and relies on the server to remember what setChannel() asked for; `device` — it keeps the
 * channel itself and sends it as `defaultChannel` on every request.
 */
export type ChannelHome = 'server' | 'device';

export interface PluginAbilities {
  checksum: ChecksumKind;
  /** Applies a per-file `manifest` whose `.br` files it decompresses and stores without the suffix. */
  manifest: boolean;
  channel: ChannelHome;
  /**
   * Sends `key_id` when the app has a public key. Before that a device says nothing of its key: with one,
   * iOS requires a signed checksum and Android takes both, without one either takes only an unsigned one.
   */
  sendsKeyId: boolean;
  /** Reads a signed checksum sent as hex (before: base64, which the service never sends). */
  readsHexSignature: boolean;
  /** Goes back to its built-in bundle on `{version: "builtin"}`; older ones report a failed update. */
  resetsToBuiltin: boolean;
}

type Platform = 'android' | 'ios';

interface Row extends PluginAbilities {
  /** The versions the row covers (semver range, prereleases included). */
  range: string;
  /** Only this platform; a row without one covers both. The first matching row wins. */
  platform?: Platform;
}

const current: PluginAbilities = {
  checksum: 'sha256',
  manifest: true,
  channel: 'device',
  sendsKeyId: true,
  readsHexSignature: true,
  resetsToBuiltin: true,
};

const ROWS: readonly Row[] = [
  // 5.0.0-5.9.x (and the 4.x line before it): CRC32 of the zip (5.4.1 A/CapacitorUpdater.java getChecksum `%08X` lower-cased,
  // I/CapacitorUpdater.swift getChecksum `%08X` lower-cased); no `.br` handling; the channel kept by the
  // server (Capgo: channelSelfStore.ts CHANNEL_SELF_STORE_MIN_V5 = 5.34.0); no builtin reset (6.2.0 brought it).
  {
    range: '<5.10.0',
    ...current,
    checksum: 'crc32',
    manifest: false,
    channel: 'server',
    sendsKeyId: false,
    readsHexSignature: false,
    resetsToBuiltin: false,
  },
  // 5.10.0 (commit 7233d9de, untagged): SHA-256 (A/CryptoCipher.java calcChecksum "SHA-256"), `.br` manifest
  // files (A/DownloadService.java `endsWith(".br")`). Hex signatures from 5.30.0 (6f10d9ee); below 5.34.0 the
  // server keeps the channel (5.34.0 is commit 211b5a06).
  {
    range: '>=5.10.0 <5.30.0',
    ...current,
    channel: 'server',
    sendsKeyId: false,
    readsHexSignature: false,
    resetsToBuiltin: false,
  },
  { range: '>=5.30.0 <5.34.0', ...current, channel: 'server', sendsKeyId: false, resetsToBuiltin: false },
  { range: '>=5.34.0 <5.50.0', ...current, sendsKeyId: false, resetsToBuiltin: false },
  // 5.50.x, 6.50.x and 7.50.1 on carry plugin 8's code (5.50.1 A/CapgoUpdater.java sends key_id).
  { range: '>=5.50.0 <6.0.0', ...current },
  // 6.0.1-6.14.27: CRC32 for an unencrypted zip (6.14.27 A/CryptoCipher.java calcChecksum `%08x`, used when
  // no session key; I/CryptoCipher.swift calcChecksum); 6.3.0-6.14.27 brotli-decode every manifest file
  // and keep its name as given (6.14.27 A/DownloadService.java has no `.br` test): no manifest.
  {
    range: '>=6.0.0 <6.2.0',
    ...current,
    checksum: 'crc32',
    manifest: false,
    channel: 'server',
    sendsKeyId: false,
    readsHexSignature: false,
    resetsToBuiltin: false,
  },
  {
    range: '>=6.2.0 <6.14.28',
    ...current,
    checksum: 'crc32',
    manifest: false,
    channel: 'server',
    sendsKeyId: false,
    readsHexSignature: false,
  },
  // 6.14.28: SHA-256 (A/CryptoCipherV2.java calcChecksum "SHA-256") and `.br` files (A/DownloadService.java
  // `isBrotli = ...endsWith(".br")`); the server keeps the channel below 6.34.0 (commit c18bb412).
  {
    range: '>=6.14.28 <6.30.0',
    ...current,
    channel: 'server',
    sendsKeyId: false,
    readsHexSignature: false,
  },
  { range: '>=6.30.0 <6.34.0', ...current, channel: 'server', sendsKeyId: false },
  { range: '>=6.34.0 <6.50.1', ...current, sendsKeyId: false },
  { range: '>=6.50.1 <7.0.0', ...current },
  // 7.0.0-7.0.1: CRC32 (7.0.1 A/CapacitorUpdater.java getChecksum, I/CapacitorUpdater.swift getChecksum).
  {
    range: '>=7.0.0 <7.0.2',
    ...current,
    checksum: 'crc32',
    manifest: false,
    channel: 'server',
    sendsKeyId: false,
    readsHexSignature: false,
    resetsToBuiltin: false,
  },
  // Android 7.0.2-7.0.29 computes a checksum only for an encrypted bundle and compares the server's with ""
  // otherwise (7.0.2 and 7.0.29 A/CapacitorUpdater.java finishDownload): only an empty checksum passes.
  // 7.0.30 computes SHA-256 in both branches (7.0.30 A/CapacitorUpdater.java finishDownload).
  {
    range: '>=7.0.2 <7.0.30',
    platform: 'android',
    ...current,
    checksum: 'none',
    manifest: false,
    channel: 'server',
    sendsKeyId: false,
    readsHexSignature: false,
  },
  // iOS 7.0.2 on: SHA-256 (7.0.2 I/CapacitorUpdater.swift uses CryptoCipherV2.calcChecksum). Until 7.0.37
  // every manifest file is brotli-decoded under its name as given; 7.0.38 tests `.br` (A/DownloadService.java
  // `isBrotli`). Capgo's server sends manifests from 7.0.35 (utils/update.ts resToVersion), which 7.0.35-7.0.37
  // cannot apply.
  {
    range: '>=7.0.2 <7.0.38',
    ...current,
    manifest: false,
    channel: 'server',
    sendsKeyId: false,
    readsHexSignature: false,
  },
  {
    range: '>=7.0.38 <7.30.0',
    ...current,
    channel: 'server',
    sendsKeyId: false,
    readsHexSignature: false,
  },
  // 7.30.0: hex signatures (6f10d9ee; 7.33.4 I/CryptoCipher.swift decryptChecksum "new format from CLI for
  // plugin versions >= 5.30.0, 6.30.0, 7.30.0"); the channel on the device from 7.34.0.
  { range: '>=7.30.0 <7.34.0', ...current, channel: 'server', sendsKeyId: false },
  { range: '>=7.34.0 <7.50.1', ...current, sendsKeyId: false },
  { range: '>=7.50.1 <8.0.0', ...current },
  // 8.0.0-8.1.x: no key_id yet (8.2.0 I/CapgoUpdater.swift `key_id: self.cachedKeyId`, b70ef369).
  { range: '>=8.0.0 <8.2.0', ...current, sendsKeyId: false },
  { range: '>=8.2.0', ...current },
];

/**
 * A `plugin_version` the service cannot read (absent, not semver):
 * the behaviour that fails safest. SHA-256, which every plugin since 5.10.0, 6.14.28 and 7.0.30 verifies (a
 * wrong guess ends in a refused download, never in unverified bytes installed); no manifest, since every
 * version applies the whole zip; the channel from the body, as the current plugin sends it; no reset to
 * builtin is withheld (plugin 8's reading).
 */
export const UNKNOWN_PLUGIN: PluginAbilities = { ...current, manifest: false };

const parsed = ROWS.map((row) => ({ row, range: new semver.Range(row.range, { includePrerelease: true }) }));

/** Looked-up versions kept; plugin versions are few, so a hostile stream of invented ones only churns. */
const MEMO_SIZE = 512;
const memo = new Map<string, PluginAbilities>();

/** What a plugin of `pluginVersion` on `platform` can apply. */
export function pluginAbilities(
  pluginVersion: string | undefined,
  platform: string | undefined,
): PluginAbilities {
  if (pluginVersion === undefined) return UNKNOWN_PLUGIN;
  const key = `${platform === 'android' || platform === 'ios' ? platform : ''} ${pluginVersion}`;
  let found = memo.get(key);
  if (found === undefined) {
    found = lookUp(pluginVersion, platform);
    if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
    memo.set(key, found);
  }
  return found;
}

function lookUp(pluginVersion: string, platform: string | undefined): PluginAbilities {
  const version = semver.parse(pluginVersion.trim());
  if (version === null) return UNKNOWN_PLUGIN;
  const match = parsed.find(
    ({ row, range }) => (row.platform === undefined || row.platform === platform) && range.test(version),
  );
  if (!match) return UNKNOWN_PLUGIN;
  const { range: _range, platform: _platform, ...abilities } = match.row;
  return abilities;
}
