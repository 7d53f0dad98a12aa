import { createHash, webcrypto } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sha256, sha256, sha256Hex, toHex, utf8 } from '../../../sdk/sha256.js';

const nodeHex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('SDK SHA-256 (pure TypeScript)', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(toHex(sha256(utf8('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toHex(sha256(utf8('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(toHex(sha256(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(toHex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('equals node:crypto on arbitrary bytes, around every padding boundary', () => {
    for (let n = 0; n <= 200; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(toHex(sha256(data))).toBe(nodeHex(data));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), (data) => toHex(sha256(data)) === nodeHex(data)),
      { numRuns: 300 },
    );
  });

  it('gives the same digest however the input is split into updates', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(), { maxLength: 10 }), (data, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
        const hasher = new Sha256();
        let start = 0;
        for (const p of [...points, data.length]) {
          hasher.update(data.subarray(start, p));
          start = p;
        }
        return toHex(hasher.digest()) === nodeHex(data);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses to be used after digest', () => {
    const hasher = new Sha256();
    hasher.digest();
    expect(() => hasher.update(new Uint8Array(1))).toThrow();
    expect(() => hasher.digest()).toThrow();
  });

  it('encodes UTF-8 exactly as TextEncoder, lone surrogates included', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(
        // Any UTF-16 code unit (lone surrogates too) or any full code point (surrogate pairs).
        fc.string({
          unit: fc.oneof(
            fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
            fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
          ),
          maxLength: 200,
        }),
        (text) => utf8(text).join(',') === encoder.encode(text).join(','),
      ),
      { numRuns: 500 },
    );
    for (const text of ['\ud800', 'a\udc00b', '\ud83d\ude00', 'é€𐍈']) {
      expect(Array.from(utf8(text))).toEqual(Array.from(encoder.encode(text)));
    }
  });

  it('sha256Hex gives the same answer through WebCrypto and without it', async () => {
    const data = utf8('bundle bytes');
    const expected = nodeHex(data);
    expect(await sha256Hex(data)).toBe(expected);
    expect(await sha256Hex(data, webcrypto.subtle as never)).toBe(expected);
    expect(await sha256Hex(data, undefined)).toBe(expected);
    const broken = { digest: async () => Promise.reject(new Error('not supported')) };
    expect(await sha256Hex(data, broken)).toBe(expected);
  });
});
