import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type ArchiveFile, sha256Hex } from '../../../src/bundles/zip-archive.js';
import {
  bundleFolderFiles,
  bytesToDownload,
  type CapacitorFile,
  capacitorFiles,
  isCapacitorBundle,
} from '../../../src/deltas/capacitor-files.js';

const file = (path: string, bytes: Buffer | string): ArchiveFile => {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  return { path, bytes: b, sha256: sha256Hex(b) };
};
const js = (n: number) => `export const value${n} = ${'"some text that compresses well"; '.repeat(100)}`;
/** 1 KiB that brotli cannot shrink (a SHA-256 chain), different for each n. */
const noise = (n: number) =>
  Buffer.concat(Array.from({ length: 32 }, (_, i) => createHash('sha256').update(`${n}:${i}`).digest()));

/**
 * The plugin's download of a manifest (DownloadService.handleManifestDownload): each entry lands at
 * file_name less `.br` (decompressed), must hash to file_hash, and is taken from the files the device
 * already holds (by hash) when it can; only the others are downloaded.
 */
function rebuild(manifest: CapacitorFile[], held: Map<string, Buffer>) {
  const folder = new Map<string, Buffer>();
  let downloaded = 0;
  for (const entry of manifest) {
    const isBrotli = entry.file_name.endsWith('.br');
    const path = isBrotli ? entry.file_name.slice(0, -3) : entry.file_name;
    expect(folder.has(path)).toBe(false);
    let bytes = held.get(entry.file_hash);
    if (!bytes) {
      downloaded += entry.bytes.length;
      expect(sha256Hex(entry.bytes)).toBe(entry.sha256);
      bytes = isBrotli ? brotliDecompressSync(entry.bytes) : entry.bytes;
    }
    expect(sha256Hex(bytes)).toBe(entry.file_hash);
    folder.set(path, bytes);
  }
  return { folder, downloaded };
}

describe('Capacitor per-file manifests', () => {
  const base = [
    file('www/index.html', '<html><script src="app.js"></script></html>'),
    file('www/app.js', js(1)),
    file('www/vendor.js', js(2)),
    file('www/logo.bin', noise(1)),
  ];
  const target = [
    file('www/index.html', '<html><script src="app.js"></script></html>'),
    file('www/app.js', js(3)),
    file('www/vendor.js', js(2)),
    file('www/logo.bin', noise(1)),
    file('www/photo.bin', noise(2)),
  ];

  it('rebuild the bundle folder, downloading only what the device does not hold', async () => {
    const manifest = await capacitorFiles(target);
    const held = new Map(bundleFolderFiles(base).map((f) => [f.sha256, f.bytes]));
    const { folder, downloaded } = rebuild(manifest, held);
    expect([...folder.keys()].sort()).toEqual(['app.js', 'index.html', 'logo.bin', 'photo.bin', 'vendor.js']);
    for (const f of bundleFolderFiles(target)) expect(folder.get(f.path)!.equals(f.bytes)).toBe(true);
    const changed = manifest.filter(
      (m) => m.file_name.startsWith('app.js') || m.file_name.startsWith('photo'),
    );
    expect(downloaded).toBe(changed.reduce((n, m) => n + m.bytes.length, 0));
    expect(bytesToDownload(manifest, new Set(held.keys()))).toBe(downloaded);
  });

  it('name brotli-compressed files .br where that is smaller, and keep incompressible ones as they are', async () => {
    const manifest = await capacitorFiles(target);
    const names = manifest.map((m) => m.file_name);
    expect(names).toContain('app.js.br');
    expect(names).toContain('logo.bin');
    const app = manifest.find((m) => m.file_name === 'app.js.br')!;
    expect(app.bytes.length).toBeLessThan(js(3).length);
  });

  it('always compress a file whose own name ends in .br, so the plugin decompresses it back', async () => {
    const raw = noise(3);
    const manifest = await capacitorFiles([file('index.html', '<html></html>'), file('data.br', raw)]);
    const entry = manifest.find((m) => m.file_hash === sha256Hex(raw))!;
    expect(entry.file_name).toBe('data.br.br');
    const { folder } = rebuild(manifest, new Map());
    expect(folder.get('data.br')!.equals(raw)).toBe(true);
  });

  it('take the single top folder of the zip as the bundle folder, as the plugin flattens it', () => {
    expect(bundleFolderFiles(base).map((f) => f.path)).toContain('index.html');
    const flat = [file('index.html', '<html></html>'), file('a.js', 'a')];
    expect(bundleFolderFiles(flat).map((f) => f.path)).toEqual(['index.html', 'a.js']);
    expect(isCapacitorBundle(base)).toBe(true);
    expect(isCapacitorBundle([file('CodePush/main.jsbundle', 'x')])).toBe(false);
  });
});
