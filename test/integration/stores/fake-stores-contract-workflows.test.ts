import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appWithBundle, Refused, storeSubjects } from './subjects.js';

/** Device overrides and channel settings against Postgres and the fakes (subjects.ts). */
const subjects = storeSubjects();

const SHA = 'cd'.repeat(32);

describe.each(subjects)('%s device overrides store', (_name, make) => {
  it('puts, replaces, finds, counts, lists newest first and deletes, per app', async () => {
    const s = make();
    const { ws, app, release } = await appWithBundle(s, SHA, 9);
    const pinned = await s.transaction((tx) => s.releases.insert(tx, release('1.0.0')));
    const first = await s.transaction((tx) =>
      s.deviceOverrides.put(tx, ws, app.id, 'phone-a', { channel: 'beta' }),
    );
    expect(first).toMatchObject({ app_id: app.id, device_id: 'phone-a', channel: 'beta', release_id: null });
    expect(first.created_at).toBeInstanceOf(Date);
    s.tick();
    await s.transaction((tx) => s.deviceOverrides.put(tx, ws, app.id, 'phone-b', { releaseId: pinned.id }));
    expect(await s.transaction((tx) => s.deviceOverrides.count(tx, app.id))).toBe(2);
    expect((await s.deviceOverrides.list(app.id)).map((o) => o.device_id)).toEqual(['phone-b', 'phone-a']);

    s.tick();
    const replaced = await s.transaction((tx) =>
      s.deviceOverrides.put(tx, ws, app.id, 'phone-a', { releaseId: pinned.id }),
    );
    expect(replaced).toMatchObject({ channel: null, release_id: pinned.id });
    expect(replaced.created_at.getTime()).toBeGreaterThan(first.created_at.getTime());
    expect(await s.deviceOverrides.find(app.id, 'phone-a')).toEqual(replaced);
    expect(await s.transaction((tx) => s.deviceOverrides.count(tx, app.id))).toBe(2);
    expect((await s.deviceOverrides.list(app.id)).map((o) => o.device_id)).toEqual(['phone-a', 'phone-b']);

    expect(await s.transaction((tx) => s.deviceOverrides.delete(tx, app.id, 'phone-a'))).toBe(true);
    expect(await s.transaction((tx) => s.deviceOverrides.delete(tx, app.id, 'phone-a'))).toBe(false);
    expect(await s.deviceOverrides.find(app.id, 'phone-a')).toBeUndefined();
    expect(await s.deviceOverrides.list(randomUUID())).toEqual([]);
  });

  it('writes nothing when the transaction fails', async () => {
    const s = make();
    const { ws, app } = await appWithBundle(s, SHA, 9);
    await s.transaction((tx) => s.deviceOverrides.put(tx, ws, app.id, 'kept', { channel: 'beta' }));
    await expect(
      s.transaction(async (tx) => {
        await s.deviceOverrides.put(tx, ws, app.id, 'kept', { channel: 'qa' });
        await s.deviceOverrides.put(tx, ws, app.id, 'added', { channel: 'qa' });
        await s.deviceOverrides.delete(tx, app.id, 'kept');
        throw new Refused();
      }),
    ).rejects.toBeInstanceOf(Refused);
    const rows = await s.deviceOverrides.list(app.id);
    expect(rows.map((o) => [o.device_id, o.channel])).toEqual([['kept', 'beta']]);
  });
});

describe.each(subjects)('%s channels store', (_name, make) => {
  it('sets and changes a channel setting, listed by name; a failed transaction leaves it', async () => {
    const s = make();
    const { app } = await appWithBundle(s, SHA, 9);
    expect(await s.channels.list(app.id)).toEqual([]);
    await s.transaction((tx) => s.channels.set(tx, app.id, 'qa.eu', true));
    await s.transaction((tx) => s.channels.set(tx, app.id, 'beta', false));
    await s.transaction((tx) => s.channels.set(tx, app.id, 'beta-2', true));
    expect((await s.channels.list(app.id)).map((c) => [c.name, c.allow_device_self_assign])).toEqual([
      ['beta', false],
      ['beta-2', true],
      ['qa.eu', true],
    ]);
    const changed = await s.transaction((tx) => s.channels.set(tx, app.id, 'beta', true));
    expect(changed).toMatchObject({ app_id: app.id, name: 'beta', allow_device_self_assign: true });
    await expect(
      s.transaction(async (tx) => {
        await s.channels.set(tx, app.id, 'beta', false);
        await s.channels.set(tx, app.id, 'new', true);
        throw new Refused();
      }),
    ).rejects.toBeInstanceOf(Refused);
    expect((await s.channels.list(app.id)).map((c) => [c.name, c.allow_device_self_assign])).toEqual([
      ['beta', true],
      ['beta-2', true],
      ['qa.eu', true],
    ]);
  });
});

describe.each(subjects)('%s Capacitor channels store', (_name, make) => {
  it('sets, replaces, reads and clears a device’s channel, per app and device', async () => {
    const s = make();
    const { app } = await appWithBundle(s, SHA, 9);
    const ref = { appId: app.id, workspaceId: app.workspace_id };
    expect(await s.capacitorChannels.get(ref, 'phone-a')).toBeUndefined();
    await s.capacitorChannels.set(ref, 'phone-a', 'beta', '203.0.113.7');
    await s.capacitorChannels.set(ref, 'phone-b', 'qa', '203.0.113.7');
    expect(await s.capacitorChannels.get(ref, 'phone-a')).toBe('beta');
    await s.capacitorChannels.set(ref, 'phone-a', 'qa', '203.0.113.7');
    expect(await s.capacitorChannels.get(ref, 'phone-a')).toBe('qa');
    await s.capacitorChannels.clear(ref, 'phone-a');
    await s.capacitorChannels.clear(ref, 'phone-a');
    expect(await s.capacitorChannels.get(ref, 'phone-a')).toBeUndefined();
    expect(await s.capacitorChannels.get(ref, 'phone-b')).toBe('qa');
    expect(await s.capacitorChannels.get({ ...ref, appId: randomUUID() }, 'phone-b')).toBeUndefined();
  });
});
