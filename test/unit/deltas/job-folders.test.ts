import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jobFolder, sweepJobFolders } from '../../../src/bundles/job-folders.js';

let parent: string | undefined;
afterEach(async () => {
  if (parent) await rm(parent, { recursive: true, force: true });
});

describe('job folders', () => {
  it('left behind by a killed process are swept once older than the bound; live ones and others stay', async () => {
    parent = await mkdtemp(join(tmpdir(), 'job-folders-test-'));
    const dead = await jobFolder('deltas', parent);
    const deadUpload = await jobFolder('upload', parent);
    const live = await jobFolder('deltas', parent);
    const unrelated = join(parent, 'something-else');
    await mkdir(unrelated);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const path of [dead, deadUpload, unrelated]) await utimes(path, hourAgo, hourAgo);
    expect(await sweepJobFolders(30 * 60_000, parent)).toBe(2);
    expect((await readdir(parent)).sort()).toEqual(
      [live, unrelated].map((p) => p.slice(parent!.length + 1)).sort(),
    );
  });

  it('keep a folder made long ago while a file in it is still being written (a slow upload spooling)', async () => {
    parent = await mkdtemp(join(tmpdir(), 'job-folders-test-'));
    const spooling = await jobFolder('upload', parent);
    const finished = await jobFolder('upload', parent);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await writeFile(join(spooling, 'body'), 'still arriving');
    await writeFile(join(finished, 'body'), 'left behind');
    await utimes(join(finished, 'body'), hourAgo, hourAgo);
    for (const path of [spooling, finished]) await utimes(path, hourAgo, hourAgo);
    expect(await sweepJobFolders(30 * 60_000, parent)).toBe(1);
    expect(await readdir(parent)).toEqual([spooling.slice(parent.length + 1)]);
  });
});
