import { createHash } from 'node:crypto';
import { parseMultipartMixedResponseAsync } from '@expo/multipart-body-parser';
import { parseDictionary } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { negotiate, parseExpectSignature, parseFailedUpdateIds } from '../../../src/expo/expo.headers.js';
import {
  base64UrlSha256,
  contentTypeOf,
  DIRECTIVE_DELAY_MS,
  directiveBytes,
  manifestBytes,
  referencedFiles,
  servedTypeOf,
} from '../../../src/expo/expo.manifest.js';
import { expoSignatureHeader, multipartMixed } from '../../../src/expo/expo.multipart.js';
import { AppError } from '../../../src/platform/errors.js';

describe('accept negotiation (Expo Updates v1, RFC 9110 weights)', () => {
  it.each([
    [undefined, 'multipart/mixed'],
    ['', 'multipart/mixed'],
    ['application/expo+json;q=0.9, application/json;q=0.8, multipart/mixed', 'multipart/mixed'],
    ['multipart/mixed;q=0.1, application/json', 'multipart/mixed'],
    ['*/*', 'multipart/mixed'],
    ['multipart/*', 'multipart/mixed'],
    ['application/json', 'application/json'],
    ['application/expo+json', 'application/expo+json'],
    ['application/json, application/expo+json', 'application/expo+json'],
    ['application/json;q=1, application/expo+json;q=0.5', 'application/json'],
    ['application/*, multipart/mixed;q=0', 'application/expo+json'],
    ['*/*, multipart/mixed;q=0, application/expo+json;q=0', 'application/json'],
    ['APPLICATION/JSON', 'application/json'],
    ['text/html', null],
    ['multipart/mixed;q=0, application/*;q=0', null],
    ['multipart/mixed;q=2', null],
    ['multipart/mixed;q=abc, application/json', 'application/json'],
    ['garbage, ;;;, /', null],
  ])('accept %j answers %j', (accept, answer) => {
    expect(negotiate(accept)).toBe(answer);
  });
});

describe('structured headers', () => {
  it('reads expo-expect-signature as expo-updates writes it', () => {
    expect(parseExpectSignature('sig, keyid="main", alg="rsa-v1_5-sha256"')).toEqual({
      keyId: 'main',
      alg: 'rsa-v1_5-sha256',
    });
    expect(parseExpectSignature('sig')).toEqual({});
    expect(() => parseExpectSignature('keyid=main')).toThrow(AppError);
    expect(() => parseExpectSignature('"unterminated')).toThrow(AppError);
  });

  it('reads expo-recent-failed-update-ids: UUIDs only, lowercase, once each, at most ten', () => {
    const a = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(parseFailedUpdateIds(`"${a}", "${a.toUpperCase()}", "embedded", 1`)).toEqual([a]);
    const many = Array.from({ length: 30 }, (_, i) => `"${a.slice(0, -2)}${String(i).padStart(2, '0')}"`);
    expect(parseFailedUpdateIds(many.join(', '))).toHaveLength(10);
    expect(() => parseFailedUpdateIds('"a", (')).toThrow(AppError);
  });

  it('writes expo-signature as an SFV dictionary expo-updates parses', () => {
    const header = expoSignatureHeader('abc+/=', 'main');
    expect(header).toBe('sig="abc+/=", keyid="main", alg="rsa-v1_5-sha256"');
    expect(parseDictionary(header).get('sig')?.[0]).toBe('abc+/=');
  });
});

describe('manifest bodies', () => {
  const APP = '00000000-0000-4000-8000-0000000000aa';
  const sha = createHash('sha256').update('bundle').digest('hex');

  it('hashes as base64url without padding, types by extension', () => {
    expect(base64UrlSha256(sha)).toBe(createHash('sha256').update('bundle').digest('base64url'));
    expect(base64UrlSha256(sha)).not.toMatch(/[=+/]/);
    expect(contentTypeOf(null)).toBe('application/javascript');
    expect(contentTypeOf('hbc')).toBe('application/javascript');
    expect(contentTypeOf('PNG')).toBe('image/png');
    expect(contentTypeOf('ttf')).toBe('font/ttf');
    expect(contentTypeOf('nosuchext')).toBe('application/octet-stream');
  });

  it('serves only types a browser never runs: JavaScript, HTML, SVG and XHTML as octet-stream', () => {
    expect(servedTypeOf(null)).toBe('application/octet-stream');
    for (const ext of ['js', 'hbc', 'bundle', 'html', 'HTM', 'svg', 'xhtml', 'xml', 'txt', 'mp4', 'pdf'])
      expect(servedTypeOf(ext), ext).toBe('application/octet-stream');
    expect(servedTypeOf('PNG')).toBe('image/png');
    expect(servedTypeOf('jpg')).toBe('image/jpeg');
    expect(servedTypeOf('woff2')).toBe('font/woff2');
    expect(servedTypeOf('json')).toBe('application/json');
    // The manifest may still name the real type: clients never read it.
    expect(contentTypeOf('svg')).toBe('image/svg+xml');
  });

  it('writes the fields of the specification in its order, the launch asset without fileExtension', () => {
    const body = manifestBytes(
      {
        id: '00000000-0000-4000-8000-000000000001',
        appId: APP,
        createdAt: new Date('2026-01-02T03:04:05.678Z'),
        runtimeVersion: '1.0.0',
        launchAsset: { sha256: sha, md5: 'a'.repeat(32), ext: null },
        assets: [{ sha256: sha, md5: 'b'.repeat(32), ext: 'png' }],
        extra: { expoClient: { name: 'x' } },
      },
      'https://ota.example.com',
    );
    const manifest = JSON.parse(body.toString('utf8'));
    expect(Object.keys(manifest)).toEqual([
      'id',
      'createdAt',
      'runtimeVersion',
      'launchAsset',
      'assets',
      'metadata',
      'extra',
    ]);
    expect(manifest.launchAsset).toEqual({
      hash: base64UrlSha256(sha),
      key: 'a'.repeat(32),
      contentType: 'application/javascript',
      url: `https://ota.example.com/api/v1/expo/${APP}/assets/${sha}.bundle`,
    });
    expect(manifest.assets[0]).toMatchObject({
      fileExtension: '.png',
      contentType: 'image/png',
      url: `https://ota.example.com/api/v1/expo/${APP}/assets/${sha}.png`,
    });
    expect(manifest.createdAt).toBe('2026-01-02T03:04:05.678Z');
    // The files it names, read from hash and extension (what expo_assets records).
    expect(referencedFiles(body)).toEqual([`${sha}.bundle`, `${sha}.png`]);
  });

  it('dates the rollBackToEmbedded directive just after the release', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    expect(JSON.parse(directiveBytes(at).toString())).toEqual({
      type: 'rollBackToEmbedded',
      parameters: { commitTime: new Date(at.getTime() + DIRECTIVE_DELAY_MS).toISOString() },
    });
  });
});

describe('multipart/mixed', () => {
  it("is read back by Expo's own parser, part headers and exact bodies included", async () => {
    const body = Buffer.from('{"id":"x","name":"€ and ü"}');
    const written = multipartMixed([
      { name: 'manifest', body, signature: 'sig="a", keyid="main"' },
      { name: 'extensions', body: Buffer.from('{}') },
    ]);
    const parts = await parseMultipartMixedResponseAsync(written.contentType, written.body);
    expect(parts.map((p) => p.name)).toEqual(['manifest', 'extensions']);
    expect(parts[0]!.body).toBe(body.toString('utf8'));
    expect(parts[0]!.headers.get('expo-signature')).toBe('sig="a", keyid="main"');
    expect(parts[0]!.headers.get('content-disposition')).toBe('inline; name="manifest"');
    expect(parts[1]!.headers.get('expo-signature')).toBeUndefined();
  });

  it('never uses a boundary that occurs in a body', () => {
    const written = multipartMixed([{ name: 'manifest', body: Buffer.from('x--b-1y') }], 'b-1');
    expect(written.contentType).not.toContain('boundary=b-1');
    expect(written.body.toString()).toContain('x--b-1y');
  });
});
