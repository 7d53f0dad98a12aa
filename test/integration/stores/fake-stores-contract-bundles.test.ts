import { describe, expect, it } from 'vitest';
import { appWithBundle, Refused, storeSubjects } from './subjects.js';

/** Bundle records, as the retention sweep reads and writes them, against Postgres and the fakes. */
const subjects = storeSubjects();

const SHA = 'cd'.repeat(32);

describe.each(subjects)('%s bundles store', (_name, make) => {
  it('records uploads, renews them, and tells when a release refers to the bytes', async () => {
    const s = make();
    const { app, release } = await appWithBundle(s, SHA, 7);
    const first = await s.bundles.usage(SHA);
    expect(first).toMatchObject({ referenced: false });
    expect(first.lastUploadAt).toBeInstanceOf(Date);
    s.tick();
    await s.bundles.record(app.id, SHA, 7);
    expect((await s.bundles.usage(SHA)).lastUploadAt!.getTime()).toBeGreaterThan(
      first.lastUploadAt!.getTime(),
    );
    expect(await s.bundles.find(app.id, SHA)).toEqual({ sha256: SHA, size: 7 });
    await s.transaction((tx) => s.releases.insert(tx, release('1.0.0')));
    expect((await s.bundles.usage(SHA)).referenced).toBe(true);
  });

  it('forgets every app’s upload of the bytes, and a refused transaction forgets nothing', async () => {
    const s = make();
    const sha = 'ef'.repeat(32);
    const one = await appWithBundle(s, sha, 3);
    const two = await appWithBundle(s, sha, 3);
    await expect(
      s.transaction(async (tx) => {
        await s.bundles.lockBlob(tx, sha);
        await s.bundles.forget(tx, sha);
        throw new Refused();
      }),
    ).rejects.toBeInstanceOf(Refused);
    expect(await s.bundles.find(one.app.id, sha)).toBeDefined();
    await s.transaction(async (tx) => {
      await s.bundles.lockBlob(tx, sha);
      await s.bundles.forget(tx, sha);
    });
    expect(await s.bundles.find(one.app.id, sha)).toBeUndefined();
    expect(await s.bundles.find(two.app.id, sha)).toBeUndefined();
    expect(await s.bundles.usage(sha)).toEqual({ lastUploadAt: null, referenced: false });
  });
});
