import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { codePushAnswer } from '../../../src/codepush/answer-bytes.js';
import {
  type Casing,
  camelAnswer,
  LegacyUpdateCheckAnswer,
  snakeAnswer,
  UpdateCheckAnswer,
  type UpdateInfo,
} from '../../../src/codepush/codepush.schemas.js';

const available: UpdateInfo = {
  isAvailable: true,
  downloadUrl: 'https://ota.example.com/api/v1/bundles/abc',
  packageHash: 'b'.repeat(64),
  label: '1.5.0',
  appVersion: '2.1.0',
  targetBinaryRange: '2.1.0',
  description: 'Fixes "quotes", back\\slashes and ünïcödé 😀',
  isMandatory: true,
  packageSize: 1_234_567,
  shouldRunBinaryVersion: false,
  updateAppVersion: false,
};
const none: UpdateInfo = {
  isAvailable: false,
  downloadUrl: '',
  packageHash: '',
  label: '',
  description: '',
  packageSize: 0,
  appVersion: '2.1.0',
  targetBinaryRange: '^3.0.0',
  isMandatory: false,
  shouldRunBinaryVersion: true,
  updateAppVersion: true,
};

/** What the route's response schema makes of the same answer, through Fastify's own serializer. */
async function serialised(info: UpdateInfo, casing: Casing): Promise<string> {
  const app = Fastify();
  const schema = casing === 'snake' ? UpdateCheckAnswer : LegacyUpdateCheckAnswer;
  app.get('/', { schema: { response: { 200: schema } } }, async () =>
    casing === 'snake' ? snakeAnswer(info) : camelAnswer(info),
  );
  const res = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return res.body;
}

describe('precomputed CodePush answers', () => {
  it('are byte for byte what the response schemas serialise, in both casings', async () => {
    for (const casing of ['snake', 'camel'] as const) {
      for (const info of [available, none]) {
        expect(codePushAnswer(info, casing, new Map()).toString('utf8')).toBe(await serialised(info, casing));
      }
    }
  });

  it('are shared by devices sending the same version, and differ by version, flags and casing', () => {
    const source = new Map<string, Buffer>();
    const a = codePushAnswer(available, 'snake', source);
    expect(codePushAnswer({ ...available }, 'snake', source)).toBe(a);
    const other = codePushAnswer(
      { ...available, appVersion: '2.2.0', targetBinaryRange: '2.2.0' },
      'snake',
      source,
    );
    expect(JSON.parse(other.toString()).update_info.app_version).toBe('2.2.0');
    expect(
      JSON.parse(codePushAnswer({ ...available, isMandatory: false }, 'snake', source).toString()).update_info
        .is_mandatory,
    ).toBe(false);
    expect(JSON.parse(codePushAnswer(available, 'camel', source).toString()).updateInfo.isMandatory).toBe(
      true,
    );
  });

  it('keep answering correctly past the number of versions kept per source', () => {
    const source = new Map<string, Buffer>();
    for (let i = 0; i < 200; i++) {
      const version = `1.0.${i}`;
      const bytes = codePushAnswer({ ...none, appVersion: version }, 'snake', source);
      expect(JSON.parse(bytes.toString()).update_info.app_version).toBe(version);
    }
  });
});
