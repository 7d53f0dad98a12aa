import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerComponents } from '../../../src/api/components.js';
import type { RoutedRelease } from '../../../src/routing/routing.types.js';
import { checkAnswer } from '../../../src/updates/answer-bytes.js';
import { CheckResponse } from '../../../src/updates/updates.schemas.js';

const release = (over: Partial<RoutedRelease> = {}): RoutedRelease => ({
  id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  version: '1.2.3',
  rolloutPct: 20,
  fingerprint: null,
  binaryRange: null,
  mandatory: true,
  paused: false,
  notes: 'Quotes " and \\ back\u2028slashes, ünïcödé, 😀 and a\nnew line',
  sha256: 'a'.repeat(64),
  size: 2_000_123,
  url: 'https://ota.example.com/api/v1/bundles/aaa',
  answers: new Map(),
  ...over,
});

/** What the route's response schema makes of the same answer, through Fastify's own serializer. */
async function serialised(update: unknown): Promise<string> {
  const app = Fastify();
  registerComponents(app);
  app.get('/', { schema: { response: { 200: CheckResponse } } }, async () => ({ update }));
  const res = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return res.body;
}

describe('precomputed update check answers', () => {
  it('are byte for byte what the response schema serialises, with and without a signature', async () => {
    const plain = release();
    const signed = release({
      signature: { manifest: '{"a":1}', sig: 'c2ln', keyid: 'k-1', alg: 'rsa-v1_5-sha256' },
    });
    for (const r of [plain, signed]) {
      const offer = {
        module_id: r.id,
        version: r.version,
        sha256: r.sha256,
        size: r.size,
        url: r.url,
        mandatory: r.mandatory,
        notes: r.notes,
        ...(r.signature ? { signature: r.signature } : {}),
      };
      expect(checkAnswer(r).toString('utf8')).toBe(await serialised(offer));
    }
    expect(checkAnswer(null).toString('utf8')).toBe(await serialised(null));
  });

  it('are made once per release object and never shared between releases', () => {
    const a = release();
    const b = release({ version: '1.2.4' });
    expect(checkAnswer(a)).toBe(checkAnswer(a));
    expect(checkAnswer(b)).not.toBe(checkAnswer(a));
    expect(JSON.parse(checkAnswer(b).toString()).update.version).toBe('1.2.4');
  });
});
