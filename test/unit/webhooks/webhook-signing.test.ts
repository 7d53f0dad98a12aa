import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, generateSigningSecret } from '../../../src/webhooks/secret-box.js';
import { envelope, signBody, verifySignature } from '../../../src/webhooks/signing.js';

const KEY = Buffer.alloc(32, 7);

describe('webhook secrets at rest', () => {
  it('round-trips any secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), (secret) => {
        expect(decryptSecret(KEY, encryptSecret(KEY, secret))).toBe(secret);
      }),
    );
  });

  it('never stores a signing secret, or its random part, in clear', () => {
    const secret = generateSigningSecret();
    const stored = encryptSecret(KEY, secret);
    expect(stored).not.toContain(secret.slice(6, 20));
  });

  it('uses a fresh IV each time and refuses a tampered value or the wrong key', () => {
    const a = encryptSecret(KEY, 'whsec_x');
    const b = encryptSecret(KEY, 'whsec_x');
    expect(a).not.toBe(b);
    const parts = a.split('.');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[0] = data[0]! ^ 1;
    parts[3] = data.toString('base64url');
    expect(() => decryptSecret(KEY, parts.join('.'))).toThrow();
    expect(() => decryptSecret(Buffer.alloc(32, 8), a)).toThrow();
    expect(() => decryptSecret(KEY, 'plain')).toThrow(/format/);
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const s = generateSigningSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(s.slice(6), 'base64url')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(s);
  });
});

describe('delivery signatures', () => {
  it('is sha256=<hex HMAC-SHA256> of the raw bytes', () => {
    const body = '{"event":"ping"}';
    const hex = createHmac('sha256', 'whsec_k').update(body).digest('hex');
    expect(signBody('whsec_k', body)).toBe(`sha256=${hex}`);
    expect(signBody('whsec_k', Buffer.from(body))).toBe(`sha256=${hex}`);
  });

  it('verifies only the exact bytes and secret', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (body, secret) => {
        const header = signBody(secret, body);
        expect(verifySignature(secret, body, header)).toBe(true);
        expect(verifySignature(`${secret}x`, body, header)).toBe(false);
        expect(verifySignature(secret, `${body} `, header)).toBe(false);
        expect(verifySignature(secret, body, header.slice(0, -1))).toBe(false);
        expect(verifySignature(secret, body, undefined)).toBe(false);
      }),
    );
  });

  it('serialises a compact envelope in a fixed field order', () => {
    const body = envelope('ping', 'w1', { a: 1 }, new Date('2026-01-02T03:04:05.006Z'));
    expect(body).toBe(
      '{"event":"ping","workspace_id":"w1","data":{"a":1},"timestamp":"2026-01-02T03:04:05.006Z"}',
    );
  });
});
