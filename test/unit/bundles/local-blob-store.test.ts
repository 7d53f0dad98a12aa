import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobSourceError, BlobTooLargeError } from '../../../src/bundles/blob-store.js';
import { LocalDiskBlobStore } from '../../../src/bundles/local-blob-store.js';

let dir: string;
let store: LocalDiskBlobStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'blob-store-test-'));
  store = new LocalDiskBlobStore(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A source that yields the buffer in small pieces, as a network upload would. */
function chunked(bytes: Buffer, size = 1000): Readable {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return Readable.from(pieces, { objectMode: false });
}

async function stored(): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(dir)) {
    if (d === '.tmp') continue;
    for (const f of await readdir(join(dir, d))) out.push(`${d}/${f}`);
  }
  return out;
}

describe('local-disk blob store', () => {
  it('stores bytes under <aa>/<sha256> and reads them back whole and by range', async () => {
    const bytes = randomBytes(50_000);
    const blob = await store.put(chunked(bytes), { maxBytes: 1_000_000 });
    expect(blob).toEqual({ sha256: sha(bytes), size: bytes.length });
    expect(await stored()).toEqual([`${blob.sha256.slice(0, 2)}/${blob.sha256}`]);
    expect(await store.has(blob.sha256)).toBe(true);
    expect(await store.size(blob.sha256)).toBe(bytes.length);
    const whole: Buffer[] = [];
    for await (const c of store.createReadStream(blob.sha256)) whole.push(c as Buffer);
    expect(Buffer.concat(whole).equals(bytes)).toBe(true);
    const part: Buffer[] = [];
    for await (const c of store.createReadStream(blob.sha256, { start: 10, end: 19 })) part.push(c as Buffer);
    expect(Buffer.concat(part).equals(bytes.subarray(10, 20))).toBe(true);
    expect(await readdir(join(dir, '.tmp'))).toEqual([]);
  });

  it('stores the same bytes once', async () => {
    const bytes = randomBytes(10_000);
    const a = await store.put(chunked(bytes), { maxBytes: 20_000 });
    const b = await store.put(chunked(bytes, 7), { maxBytes: 20_000 });
    expect(b).toEqual(a);
    expect(await stored()).toHaveLength(1);
    expect(await readdir(join(dir, '.tmp'))).toEqual([]);
  });

  it('accepts exactly maxBytes and refuses one more, leaving no file and the source undestroyed', async () => {
    const bytes = randomBytes(4096);
    await expect(store.put(chunked(bytes), { maxBytes: 4096 })).resolves.toMatchObject({ size: 4096 });
    const source = new PassThrough();
    const put = store.put(source, { maxBytes: 4095 });
    source.write(bytes.subarray(0, 4000));
    source.write(bytes.subarray(4000));
    await expect(put).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(source.destroyed).toBe(false);
    source.end(randomBytes(100)); // the rest is drained without error
    await new Promise((r) => source.on('end', r));
    expect(await stored()).toHaveLength(1);
    expect(await readdir(join(dir, '.tmp'))).toEqual([]);
  });

  it('rejects when the source fails midway, leaving nothing', async () => {
    let pieces = 0;
    const source = new Readable({
      read() {
        if (pieces++ < 3) this.push(randomBytes(1000));
        else this.destroy(new Error('connection reset'));
      },
    });
    await expect(store.put(source, { maxBytes: 1_000_000 })).rejects.toBeInstanceOf(BlobSourceError);
    expect(pieces).toBe(4);
    expect(await stored()).toEqual([]);
    expect(await readdir(join(dir, '.tmp'))).toEqual([]);
  });

  it('rejects a source that failed before the store saw it instead of waiting for it', async () => {
    const source = new PassThrough();
    source.on('error', () => {});
    source.destroy(new Error('gone'));
    await expect(store.put(source, { maxBytes: 10 })).rejects.toBeInstanceOf(BlobSourceError);
    expect(await readdir(join(dir, '.tmp'))).toEqual([]);
  });

  it('answers unknown blobs as absent and never builds a path from a malformed name', async () => {
    const unknown = 'f'.repeat(64);
    expect(await store.has(unknown)).toBe(false);
    expect(await store.size(unknown)).toBeUndefined();
    await expect(text(store.createReadStream(unknown))).rejects.toMatchObject({ code: 'ENOENT' });
    for (const bad of ['../../../etc/passwd', 'F'.repeat(64), 'abc', `${'a'.repeat(63)}/`]) {
      expect(() => store.pathOf(bad)).toThrow();
      await expect(store.has(bad)).rejects.toThrow();
    }
  });
});
