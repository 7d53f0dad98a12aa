import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { hashingBody } from '../../../src/bundles/hashing-body.js';

describe('the hashing body of an upload', () => {
  it("waits for the source's end when the store is done first (a PutObject of a declared length)", async () => {
    const source = new PassThrough();
    const hashing = hashingBody(source, 1024);
    const bytes = Buffer.from('a file whose stream ends a read later');
    source.write(bytes);
    // The store has read every declared byte and is done; the source has not said it ended yet.
    const read: Buffer[] = [];
    hashing.body.on('data', (chunk: Buffer) => read.push(chunk));
    await new Promise((resolve) => setImmediate(resolve));
    expect(Buffer.concat(read)).toEqual(bytes);
    const result = hashing.result();
    source.end();
    await expect(result).resolves.toEqual({
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
    });
  });

  it("answers the source's failure when it fails before its end", async () => {
    const source = new PassThrough();
    const hashing = hashingBody(source, 4);
    const result = hashing.result();
    source.write(Buffer.from('too long'));
    await expect(result).rejects.toThrow();
    expect(hashing.failure()).toBeDefined();
  });
});
