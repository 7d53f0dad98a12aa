import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appWithBundle, Refused, storeSubjects } from './subjects.js';

/** Releases against Postgres and the fakes (subjects.ts). */
const subjects = storeSubjects();

const SHA = 'ab'.repeat(32);

describe.each(subjects)('%s releases store', (_name, make) => {
  it('inserts, finds within the workspace, and pages newest first by seq', async () => {
    const s = make();
    const { ws, app, release } = await appWithBundle(s, SHA, 42);
    const v1 = await s.transaction((tx) => s.releases.insert(tx, release('1.0.0', { notes: 'first' })));
    expect(v1).toMatchObject({
      workspace_id: ws,
      app_id: app.id,
      version: '1.0.0',
      channel: 'production',
      rollout_pct: 100,
      notes: 'first',
      size: 42,
      active: true,
      rolled_back_at: null,
    });
    expect(v1.created_at).toBeInstanceOf(Date);
    s.tick();
    const beta = await s.transaction((tx) => s.releases.insert(tx, release('1.0.0', { channel: 'beta' })));
    const v2 = await s.transaction((tx) => s.releases.insert(tx, release('1.1.0', { rolloutPct: 25 })));
    expect(beta.seq).toBeGreaterThan(v1.seq);
    expect(v2.seq).toBeGreaterThan(beta.seq);

    expect(await s.releases.find(ws, v1.id)).toEqual(v1);
    expect(await s.releases.find(await s.newWorkspace(), v1.id)).toBeUndefined();
    expect(await s.releases.findVersion(app.id, 'production', '1.0.0')).toEqual(v1);
    expect(await s.releases.findVersion(app.id, 'beta', '1.1.0')).toBeUndefined();

    const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);
    // limit + 1 rows: the extra one tells the caller another page exists.
    expect(ids(await s.releases.list(app.id, undefined, 2, 0))).toEqual([v2.id, beta.id, v1.id]);
    expect(ids(await s.releases.list(app.id, undefined, 2, 2))).toEqual([v1.id]);
    expect(ids(await s.releases.list(app.id, 'production', 10, 0))).toEqual([v2.id, v1.id]);
  });

  it('a signed push fixes its own id and time', async () => {
    const s = make();
    const { ws, release } = await appWithBundle(s, SHA, 42);
    const id = randomUUID();
    const createdAt = new Date('2031-02-03T04:05:06.000Z');
    const row = await s.transaction((tx) => s.releases.insert(tx, release('2.0.0', { id, createdAt })));
    expect(row).toMatchObject({ id, created_at: createdAt });
    expect(await s.releases.find(ws, id)).toEqual(row);
  });

  it('keeps the Capacitor fields of a release, null for others', async () => {
    const s = make();
    const { ws, release } = await appWithBundle(s, SHA, 42);
    const capacitor = { checksum: 'ef'.repeat(256), sessionKey: 'iv:key', keyId: 'MIIBCgKCAQEAl+cqGoBz' };
    const sealed = await s.transaction((tx) => s.releases.insert(tx, release('3.0.0', { capacitor })));
    expect(sealed).toMatchObject({
      capacitor_checksum: capacitor.checksum,
      capacitor_session_key: 'iv:key',
      capacitor_key_id: capacitor.keyId,
    });
    expect(await s.releases.find(ws, sealed.id)).toEqual(sealed);
    const plain = await s.transaction((tx) => s.releases.insert(tx, release('3.0.1')));
    expect(plain).toMatchObject({
      capacitor_checksum: null,
      capacitor_session_key: null,
      capacitor_key_id: null,
    });
  });

  it('pauses and resumes in place, keeping the rollout; keeps where a promoted release came from', async () => {
    const s = make();
    const { ws, release } = await appWithBundle(s, SHA, 42);
    const staged = await s.transaction((tx) => s.releases.insert(tx, release('4.0.0', { rolloutPct: 30 })));
    expect(staged).toMatchObject({ paused: false, promoted_from: null, promoted_from_channel: null });
    const paused = await s.transaction((tx) => s.releases.setPaused(tx, staged.id, true));
    expect(paused).toMatchObject({ id: staged.id, paused: true, rollout_pct: 30, active: true });
    expect(await s.releases.find(ws, staged.id)).toEqual(paused);
    const resumed = await s.transaction((tx) => s.releases.setPaused(tx, staged.id, false));
    expect(resumed).toMatchObject({ paused: false, rollout_pct: 30 });

    const promotedFrom = { id: staged.id, channel: 'production' };
    const copy = await s.transaction((tx) =>
      s.releases.insert(tx, release('4.0.0', { channel: 'beta', promotedFrom })),
    );
    expect(copy).toMatchObject({ promoted_from: staged.id, promoted_from_channel: 'production' });
    expect(await s.releases.find(ws, copy.id)).toEqual(copy);
    const many = await s.releases.findMany(ws, [copy.id, staged.id, randomUUID()]);
    expect(many.map((r) => r.id).sort()).toEqual([copy.id, staged.id].sort());
    expect(await s.releases.findMany(await s.newWorkspace(), [copy.id])).toEqual([]);
    expect(await s.releases.findMany(ws, [])).toEqual([]);
  });

  it('looks releases up by exact version or id prefix, in the workspace and scope asked', async () => {
    const s = make();
    const { ws, app, release } = await appWithBundle(s, SHA, 42);
    const v1 = await s.transaction((tx) => s.releases.insert(tx, release('1.0.0')));
    const beta = await s.transaction((tx) => s.releases.insert(tx, release('1.0.0', { channel: 'beta' })));
    const byVersion = await s.releases.lookup(ws, { version: '1.0.0', idPrefix: null }, {}, 20);
    expect(byVersion.map((r) => r.id)).toEqual([beta.id, v1.id]);
    const scoped = await s.releases.lookup(
      ws,
      { version: '1.0.0', idPrefix: null },
      { appId: app.id, channel: 'production' },
      20,
    );
    expect(scoped.map((r) => r.id)).toEqual([v1.id]);
    const prefix = v1.id.slice(0, 8);
    const byPrefix = await s.releases.lookup(ws, { version: prefix, idPrefix: prefix }, {}, 20);
    expect(byPrefix.map((r) => r.id)).toEqual([v1.id]);
    // A prefix is text, never a pattern.
    expect(await s.releases.lookup(ws, { version: 'x', idPrefix: '%' }, {}, 20)).toEqual([]);
    expect(
      await s.releases.lookup(await s.newWorkspace(), { version: '1.0.0', idPrefix: null }, {}, 20),
    ).toEqual([]);
    expect(await s.releases.lookup(ws, { version: '1.0.0', idPrefix: null }, {}, 1)).toHaveLength(1);
  });

  it('changes rollouts, rolls back, and falls back to the newest earlier active release', async () => {
    const s = make();
    const { ws, app, release } = await appWithBundle(s, SHA, 42);
    const v1 = await s.transaction((tx) => s.releases.insert(tx, release('1.0.0')));
    const v2 = await s.transaction((tx) => s.releases.insert(tx, release('1.1.0')));
    const v3 = await s.transaction((tx) => s.releases.insert(tx, release('1.2.0', { rolloutPct: 10 })));
    await s.transaction((tx) => s.releases.insert(tx, release('0.9.0', { channel: 'beta' })));

    const raised = await s.transaction((tx) => s.releases.setRollout(tx, v3.id, 50));
    expect(raised).toMatchObject({ id: v3.id, rollout_pct: 50, active: true });
    expect(await s.releases.previousActive(app.id, 'production', v3.seq)).toEqual(v2);

    const rolledBack = await s.transaction((tx) => s.releases.deactivate(tx, v2.id));
    expect(rolledBack).toMatchObject({ id: v2.id, active: false });
    expect(rolledBack.rolled_back_at).toBeInstanceOf(Date);
    expect(await s.releases.find(ws, v2.id)).toEqual(rolledBack);
    // An inactive release is skipped; other channels never count.
    expect(await s.releases.previousActive(app.id, 'production', v3.seq)).toEqual(v1);
    expect(await s.releases.previousActive(app.id, 'production', v1.seq)).toBeUndefined();
  });

  it('a transaction that throws leaves no release written or changed', async () => {
    const s = make();
    const { ws, app, release } = await appWithBundle(s, SHA, 42);
    const v1 = await s.transaction((tx) => s.releases.insert(tx, release('1.0.0', { rolloutPct: 20 })));
    const attempt = s.transaction(async (tx) => {
      await s.releases.insert(tx, release('1.1.0'));
      await s.releases.setRollout(tx, v1.id, 80);
      await s.releases.deactivate(tx, v1.id);
      throw new Refused();
    });
    await expect(attempt).rejects.toBeInstanceOf(Refused);
    expect(await s.releases.list(app.id, undefined, 10, 0)).toEqual([v1]);
    expect(await s.releases.find(ws, v1.id)).toEqual(v1);
  });
});
