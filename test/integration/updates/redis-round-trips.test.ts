import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketOf } from '../../../src/updates/bucket.js';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';
import { announce, offered, seedApp, seedRelease, seedWorkspace } from './seed.js';

// The hot path's promise: an admitted device costs no Redis round trip; a device new to a capped workspace
// costs exactly one atomic script (the cap). Background writers (distinct devices, the check recorder) send
// plain commands in batches on their own schedule, so the scripts run on behalf of requests are what counts.
// Listening too: checks are sent over HTTP as devices send them, as well as through `inject`.
const ctx = fileContext({ listen: true });
let monitor: Socket;
/** Lines of the MONITOR feed naming this file's keys: `<time> [<db> <client>] "<command>" "<arg>" …`. */
const seen: string[] = [];

beforeAll(async () => {
  // A bare connection of its own: MONITOR turns it into a feed of every command the server runs, one
  // `+line` each. Read by hand, since a client library's reply queue is not made for a feed that starts
  // before the OK of the command that asked for it.
  const url = new URL(ctx.config.redis.url);
  monitor = connect(Number(url.port || 6379), url.hostname);
  if (url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    monitor.write(user ? `AUTH ${user} ${password}\r\n` : `AUTH ${password}\r\n`);
  }
  monitor.write('MONITOR\r\n');
  let rest = '';
  monitor.setEncoding('utf8');
  monitor.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\r\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.includes(ctx.config.redisKeyPrefix)) seen.push(line);
  });
  await waitFor('the monitor feed', async () => {
    await ctx.deps.redis.exists(`${ctx.config.redisKeyPrefix}monitor-up`);
    return seen.length > 0;
  });
});
afterAll(async () => {
  monitor?.destroy();
});

/**
 * A command of our own through the service's connection, once the feed shows it: everything the server ran
 * before it has been seen. Returns the feed's length at that point.
 */
async function mark(): Promise<number> {
  const sentinel = `${ctx.config.redisKeyPrefix}sentinel:${randomBytes(4).toString('hex')}`;
  await ctx.deps.redis.exists(sentinel);
  const at = await waitFor('the monitor to see the sentinel', () => {
    const i = seen.findIndex((line) => line.includes(sentinel));
    return i === -1 ? undefined : i + 1;
  });
  return at;
}

/** Commands clients sent against this file's keys while `work` runs, between two marks. */
async function commandsDuring(work: () => Promise<void>): Promise<string[]> {
  const from = await mark();
  await work();
  const to = await mark();
  // Commands a script runs itself show up as `[0 lua]`; the marks are ours.
  return seen.slice(from, to).filter((line) => !line.includes(' lua] ') && !line.includes('sentinel:'));
}

/** Scripts run against this file's keys while `work` runs, between two marks. */
async function scriptsDuring(work: () => Promise<void>): Promise<string[]> {
  return (await commandsDuring(work)).filter((line) => /\] "eval(sha)?" /i.test(line));
}

/**
 * Commands the background writers send in batches on their own schedule (distinct devices, the check
 * recorder's stream, the bytes-served counters written once a second), which may fall inside a window: not
 * sent on behalf of a request.
 */
const BACKGROUND = /\] "(xadd|pfadd|pexpire|expire|multi|exec)" |\] "hincrby" "[^"]*bytes-served:/i;
const onRequestPath = (lines: string[]) => lines.filter((line) => !BACKGROUND.test(line));

/** Commands that touch the override checks' hash: what a check of a pinned device may cost. */
const overrideWrites = (lines: string[]) => lines.filter((line) => line.includes('override-checks'));

describe('Redis round trips of the update check', () => {
  it('costs a device new to a capped workspace one script, and the same device none afterwards', async () => {
    const workspaceId = await seedWorkspace(ctx, 'hobby');
    const appId = await seedApp(ctx, workspaceId);
    const release = await seedRelease(ctx, appId);
    // The app's routing state is loaded by a first check of another device, outside the count.
    await offered(ctx, { app_id: appId, device_id: 'warm-up' });

    const first = await scriptsDuring(async () => {
      expect(await offered(ctx, { app_id: appId, device_id: 'phone-1' })).toBe(release.id);
    });
    expect(first, 'scripts of the first check').toHaveLength(1);

    const later = await scriptsDuring(async () => {
      for (let i = 0; i < 20; i++) {
        expect(await offered(ctx, { app_id: appId, device_id: 'phone-1' })).toBe(release.id);
      }
    });
    expect(later, 'scripts of 20 later checks').toEqual([]);
  });

  it('costs a device of an uncapped workspace no script at all', async () => {
    const workspaceId = await seedWorkspace(ctx, 'team');
    const appId = await seedApp(ctx, workspaceId);
    const release = await seedRelease(ctx, appId);
    await offered(ctx, { app_id: appId, device_id: 'warm-up' });
    const scripts = await scriptsDuring(async () => {
      for (let i = 0; i < 10; i++) {
        expect(await offered(ctx, { app_id: appId, device_id: `tablet-${i}` })).toBe(release.id);
      }
    });
    expect(scripts).toEqual([]);
  });

  it('costs nothing more with overrides, a paused and a promoted release, unless the device is pinned', async () => {
    const workspaceId = await seedWorkspace(ctx, 'team');
    const appId = await seedApp(ctx, workspaceId);
    const staging = await seedRelease(ctx, appId, { channel: 'staging' });
    const base = await seedRelease(ctx, appId);
    const paused = await seedRelease(ctx, appId);
    await ctx.deps.db.query('UPDATE releases SET paused = true WHERE id = $1', [paused.id]);
    // A promoted release: the same bytes on production, with where it came from.
    const { rows } = await ctx.deps.db.query<{ id: string }>(
      `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, sha256, size,
                             promoted_from, promoted_from_channel)
       SELECT workspace_id, app_id, version, 'production', 50, sha256, size, id, channel
         FROM releases WHERE id = $1 RETURNING id`,
      [staging.id],
    );
    const promoted = rows[0]!.id;
    await ctx.deps.db.query(
      `INSERT INTO device_overrides (app_id, device_id, workspace_id, channel, release_id)
       SELECT $1::uuid, 'pinned-' || n, $2::uuid, NULL, $3::uuid FROM generate_series(1, 50) AS n
       UNION ALL SELECT $1::uuid, 'tester-' || n, $2::uuid, 'staging', NULL FROM generate_series(1, 50) AS n`,
      [appId, workspaceId, base.id],
    );
    await announce(ctx, appId);
    await offered(ctx, { app_id: appId, device_id: 'warm-up' });

    const unpinned = await commandsDuring(async () => {
      for (let i = 0; i < 20; i++) {
        const device = `plain-${i}`;
        const onPromoted = bucketOf(promoted, device) < 50;
        expect(await offered(ctx, { app_id: appId, device_id: device })).toBe(
          onPromoted ? promoted : base.id,
        );
        // A device on the paused release keeps it, unless the newer promoted release is for it.
        expect(await offered(ctx, { app_id: appId, device_id: device, current_module_id: paused.id })).toBe(
          onPromoted ? promoted : null,
        );
      }
      // A device moved to another channel costs nothing either.
      expect(await offered(ctx, { app_id: appId, device_id: 'tester-1' })).toBe(staging.id);
    });
    expect(onRequestPath(unpinned), 'commands for devices without a pin').toEqual([]);

    // A pinned device: its outcome is noted once, and not again while it stays the same.
    const pinned = await commandsDuring(async () => {
      for (let i = 0; i < 10; i++)
        expect(await offered(ctx, { app_id: appId, device_id: 'pinned-1' })).toBe(base.id);
    });
    expect(onRequestPath(pinned)).toHaveLength(1);
    expect(overrideWrites(pinned)[0]).toMatch(/"hset"/i);
  });
});
