import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChainCursor, type ChainLink, checkLinks } from '../../../src/audit/audit.chain.js';

const h = (s: string) => createHash('sha256').update(s).digest('hex');

/** A valid chain: each hash covers the previous hash and the entry's content, as audit_entry_hash does. */
function chain(contents: string[]): ChainLink[] {
  let prev = '';
  return contents.map((content, i) => {
    const hash = h(`${prev}|${content}`);
    const link = { seq: (i + 1) * 3, id: `id-${i}`, prev_hash: prev, hash, recomputed: hash };
    prev = hash;
    return link;
  });
}

const fresh = (): ChainCursor => ({ expectedPrev: '', checked: 0 });

describe('checkLinks', () => {
  it('accepts an intact chain, in one batch or many', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        (contents, size) => {
          const links = chain(contents);
          const cursor = fresh();
          for (let i = 0; i < links.length; i += size) {
            expect(checkLinks(cursor, links.slice(i, i + size))).toBeUndefined();
          }
          expect(cursor.checked).toBe(links.length);
          expect(cursor.expectedPrev).toBe(links.at(-1)?.hash ?? '');
        },
      ),
    );
  });

  it('names the altered entry when its content no longer matches its hash', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 30 }), fc.nat(), (contents, pick) => {
        const links = chain(contents);
        const i = pick % links.length;
        links[i] = { ...links[i]!, recomputed: h(`${links[i]!.prev_hash}|tampered`) };
        const cursor = fresh();
        expect(checkLinks(cursor, links)).toEqual({
          seq: links[i]!.seq,
          id: links[i]!.id,
          reason: 'hash_mismatch',
        });
        expect(cursor.checked).toBe(i + 1);
      }),
    );
  });

  it('names the entry after a removed one, and the entry after one rewritten with a fresh hash', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 3, maxLength: 30 }), fc.nat(), (contents, pick) => {
        const links = chain(contents);
        const i = 1 + (pick % (links.length - 2));
        const removed = links.filter((_, k) => k !== i);
        expect(checkLinks(fresh(), removed)).toMatchObject({
          seq: links[i + 1]!.seq,
          reason: 'prev_hash_mismatch',
        });

        const rewritten = [...links];
        const forged = h(`${links[i]!.prev_hash}|forged`);
        rewritten[i] = { ...links[i]!, hash: forged, recomputed: forged };
        expect(checkLinks(fresh(), rewritten)).toMatchObject({
          seq: links[i + 1]!.seq,
          reason: 'prev_hash_mismatch',
        });
      }),
    );
  });

  it('a chain must start from the empty hash', () => {
    const links = chain(['a', 'b']).slice(1);
    expect(checkLinks(fresh(), links)).toMatchObject({ seq: 6, reason: 'prev_hash_mismatch' });
  });
});
