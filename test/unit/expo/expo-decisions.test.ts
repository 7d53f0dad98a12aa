import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { directiveBytes } from '../../../src/expo/expo.manifest.js';
import { buildExpoRoute, candidatesKey, type ExpoRouteRow } from '../../../src/expo/expo.route.js';
import { ExpoUpdatesService, type ManifestRequest } from '../../../src/expo/expo-updates.service.js';
import type { AppRoute } from '../../../src/routing/routing.types.js';
import { resolveRelease } from '../../../src/updates/resolve.js';
import type { CheckInput, CheckOutcome } from '../../../src/updates/updates.service.js';

/** The Expo adapter's choices, on a fake resolver: which answer for which device state. */
function rows(
  id: string,
  created: number,
  options: {
    active?: boolean;
    paused?: boolean;
    signed?: boolean;
    channel?: string;
    platforms?: string[];
  } = {},
): ExpoRouteRow[] {
  const base = {
    id,
    channel: options.channel ?? 'production',
    version: id.slice(0, 4),
    rollout_pct: 100,
    mandatory: false,
    notes: '',
    sha256: 'ab'.repeat(32),
    size: 10,
    fingerprint: '1.0.0',
    active: options.active ?? true,
    paused: options.paused ?? false,
    created_at: new Date(created),
    signature: options.signed ? 'c2lnbmF0dXJlLWJ5dGVzLWhlcmU=' : null,
    key_id: options.signed ? 'main' : null,
  };
  return [
    ...(options.platforms ?? ['ios', 'android']).map((p) => ({
      ...base,
      part: p as 'ios',
      body: Buffer.from(JSON.stringify({ id, platform: p })),
    })),
    { ...base, part: 'directive' as const, body: directiveBytes(new Date(created)) },
  ];
}

const old = randomUUID();
const mid = randomUUID();
const gone = randomUUID();
const t0 = Date.parse('2026-01-01T00:00:00Z');
// Newest first: a rolled-back release, then two active ones.
const expo = buildExpoRoute(
  [
    ...rows(gone, t0 + 3000, { active: false, signed: true }),
    ...rows(mid, t0 + 2000),
    ...rows(old, t0 + 1000, { signed: true }),
  ],
  (sha) => `http://x/${sha}`,
)!;
const route: AppRoute = {
  appId: 'app',
  workspaceId: 'ws',
  plan: 'team',
  channels: new Map(),
  modules: new Set([old, mid, gone]),
  expo,
  answers: new Map(),
};

function service(pick: (candidates: readonly { id: string }[], input: CheckInput) => string | null) {
  const report = vi.fn(async () => 1);
  const resolve = async (input: CheckInput): Promise<CheckOutcome> => {
    const channel = input.channel ?? 'production';
    const candidates = input.candidates!(route, channel);
    const id = pick(candidates, input);
    const release = candidates.find((c) => c.id === id) ?? null;
    const upToDate = release !== null && release.id === input.current_module_id;
    return { route, release: upToDate ? null : release, admitted: true, refused: null, upToDate, channel };
  };
  return { svc: new ExpoUpdatesService({ resolve }, { accept: report }, pino({ level: 'silent' })), report };
}

const request = (extra: Partial<ManifestRequest> = {}): ManifestRequest => ({
  client: { ip: '127.0.0.1' },
  appId: 'app',
  protocolVersion: '1',
  platform: 'ios',
  runtimeVersion: '1.0.0',
  channel: undefined,
  accept: undefined,
  easClientId: 'device-1',
  currentUpdateId: undefined,
  expectSignature: undefined,
  failedUpdateIds: undefined,
  ...extra,
});

const bodyOf = (answer: Awaited<ReturnType<ExpoUpdatesService['answer']>>) =>
  answer.status === 200 ? answer.body.toString() : '';

describe('the Expo adapter on a fake resolver', () => {
  it('holds active releases as candidates per channel and platform, newest first, and every release by id', () => {
    expect(expo.candidates.get(candidatesKey('production', 'ios'))!.map((r) => r.id)).toEqual([mid, old]);
    expect([...expo.releases.keys()]).toEqual([gone, mid, old]);
    expect(expo.releases.get(old)!.platforms.ios!.signature).toContain('keyid="main"');
  });

  it('serves the newest candidate, and nothing to a device that runs it', async () => {
    const { svc } = service((c) => c[0]!.id);
    expect(bodyOf(await svc.answer(request()))).toContain(mid);
    expect(await svc.answer(request({ currentUpdateId: mid.toUpperCase() }))).toEqual({ status: 204 });
  });

  it('sends a device on a withdrawn release back to the embedded update when what is left is older', async () => {
    const { svc } = service((c) => c[0]!.id);
    const answer = await svc.answer(request({ currentUpdateId: gone }));
    expect(bodyOf(answer)).toContain('rollBackToEmbedded');
    // A JSON-only client cannot carry a directive: 406.
    await expect(
      svc.answer(request({ currentUpdateId: gone, accept: 'application/json' })),
    ).rejects.toMatchObject({
      status: 406,
      code: 'directive_needs_multipart',
    });
  });

  it('serves a newer release to a device leaving an older one, rather than the embedded update', async () => {
    const { svc } = service((c) => c[0]!.id);
    expect(bodyOf(await svc.answer(request({ currentUpdateId: old })))).toContain(mid);
  });

  it('with nothing to serve: a directive only for a device running a release of the app', async () => {
    const { svc } = service(() => null);
    expect(bodyOf(await svc.answer(request({ currentUpdateId: mid })))).toContain('rollBackToEmbedded');
    expect(await svc.answer(request({ currentUpdateId: randomUUID() }))).toEqual({ status: 204 });
    expect(await svc.answer(request())).toEqual({ status: 204 });
    // Another runtime's device is not running this release, whatever it claims.
    expect(await svc.answer(request({ currentUpdateId: mid, runtimeVersion: '2.0.0' }))).toEqual({
      status: 204,
    });
  });

  it('offers a client that expects signatures only releases signed with its key, directives included', async () => {
    const { svc } = service((c) => c[0]?.id ?? null);
    const expectSignature = 'sig, keyid="main"';
    expect(bodyOf(await svc.answer(request({ expectSignature })))).toContain(old);
    expect(await svc.answer(request({ expectSignature: 'sig, keyid="other"' }))).toEqual({ status: 204 });
    const unsignedLeaving = service(() => null).svc;
    expect(await unsignedLeaving.answer(request({ expectSignature, currentUpdateId: mid }))).toEqual({
      status: 204,
    });
  });

  it('reports failed launches of releases of the app once per device, and nothing else', async () => {
    const { svc, report } = service((c) => c[0]!.id);
    const failedUpdateIds = `"${gone}", "${randomUUID()}"`;
    await svc.answer(request({ failedUpdateIds }));
    await new Promise((r) => setImmediate(r));
    await svc.answer(request({ failedUpdateIds }));
    await svc.answer(request({ failedUpdateIds, easClientId: undefined }));
    expect(report).toHaveBeenCalledTimes(1);
    // Handed over with the device's address, read before the answer was sent.
    expect(report).toHaveBeenCalledWith(
      'app',
      [expect.objectContaining({ id: `expo-failed:device-1:${gone}`, module_id: gone, type: 'error' })],
      { ip: '127.0.0.1' },
    );
  });
});

describe('the resolver without a device id', () => {
  it('takes releases at 100 % only: a staged release has no bucket to admit a device by', () => {
    const staged = { ...expo.releases.get(mid)!.release, rolloutPct: 99.9 };
    const full = expo.releases.get(old)!.release;
    expect(resolveRelease([staged, full], undefined, '1.0.0')).toBe(full);
    expect(resolveRelease([staged], undefined, '1.0.0')).toBeNull();
  });
});
