import { describe, expect, it } from 'vitest';
import { keyspaceNodes } from '../../../src/platform/redis.js';
import { eventually, waitDeliveredOnceEach } from '../support/checks.js';
import { telemetry } from '../support/fleet-traffic.js';
import { call, expectStatus, pushRelease } from '../support/http.js';
import { PrivateRedisCluster } from '../support/private-redis-cluster.js';
import { systemWorld } from '../support/world.js';

/**
 * The service on a three-master Redis Cluster (REDIS_CLUSTER=true, REDIS_URL the seed node): every script,
 * multi-key command and queue must stay within one shard, which the {hash tags} of RedisKeys guarantee.
 */
// Sign-ins a minute per address: room for the workspaces the spread check below may add.
const SIGNIN_LIMIT = 10;

const sys = systemWorld({
  server: () => PrivateRedisCluster.start(3),
  env: (cluster) => ({
    REDIS_URL: cluster.url,
    REDIS_CLUSTER: 'true',
    RATE_LIMIT_SIGNIN_PER_MINUTE: String(SIGNIN_LIMIT),
    // Behind a balancer, as in production: devices on different networks are named by X-Forwarded-For.
    TRUST_PROXY: 'loopback',
  }),
});

describe('on a Redis Cluster', () => {
  it('serves, caps, ingests, alerts and delivers as on one Redis, with keys spread over the shards', async () => {
    const { world } = sys;
    const { owner, appId, sha256 } = await world.tenant();
    const hook = await world.hook(owner, '/cluster', ['release.pushed', 'error_spike']);
    const release = await pushRelease(world.url, owner, { appId, sha256 }, '1.0.0');

    // Device cap (one Lua script on the workspace's shard): exactly 100 of 110 devices served.
    const answers = await Promise.all(
      Array.from({ length: 110 }, (_, i) =>
        call(world.url, 'POST', '/updates/check', {
          body: { app_id: appId, device_id: `cluster-device-${i}` },
        }),
      ),
    );
    expect(answers.filter((a) => expectStatus(a, 200).update !== null)).toHaveLength(100);
    const usage = expectStatus(
      await call(world.url, 'GET', `/workspaces/${owner.workspaceId}/usage`, { headers: owner.headers }),
      200,
    );
    expect(usage.distinct_devices).toBe(100);

    // Telemetry through the stream, acknowledged with its failure counters by one script.
    const events = telemetry(world.url, appId, release.id, 2, 50);
    await eventually('events taken through the cluster', async () =>
      events.state.accepted >= 1000 ? true : undefined,
    );
    await events.traffic.stop();
    expect(events.traffic.unexpected).toEqual([]);
    await world.expectEachEventOnce(owner, { appId, moduleId: release.id }, events.state.accepted);

    // An error spike: 200 errors on top of the activations above cross 3 % (counters, spike queue, outbox,
    // webhook queue); its delivery and the push's are both made.
    expectStatus(
      await call(world.url, 'PUT', `/apps/${appId}/alerts`, {
        headers: owner.headers,
        body: { threshold: 0.03, min_sample: 20 },
      }),
      200,
    );
    // Each failing device reports from a network of its own: alerts count devices and their networks.
    for (let d = 0; d < 100; d++) {
      const errors = [0, 1].map((k) => ({
        id: `cluster-error-${d}-${k}`,
        device_id: `cluster-device-${d}`,
        module_id: release.id,
        type: 'error',
      }));
      expectStatus(
        await call(world.url, 'POST', '/devices/events', {
          body: { app_id: appId, events: errors },
          headers: { 'x-forwarded-for': `198.18.${d}.7` },
        }),
        202,
      );
    }
    await waitDeliveredOnceEach(world.ctx.deps, world.receiver, hook, 2);
    const kinds = world.receiver.at('/cluster').map((r) => r.headers['x-service-event']);
    expect(kinds.sort()).toEqual(['error_spike', 'release.pushed']);

    // The deployment's keys really are spread over the masters. Where a key lives follows its hash tag: the
    // stream's and the queues' tags ({ingest}, {bull}) share one master of this three-master cluster, and a
    // workspace's ({ws:<id>}) falls on any master by its random id, so keys on a second master are certain
    // only once some workspace's tag falls elsewhere. More workspaces check until one does (each with
    // probability 2/3; nine workspaces all on the stream's master: 1 in 19,683). Their device-cap keys
    // exist once the check has answered.
    const holders = async () => {
      let n = 0;
      for (const node of keyspaceNodes(world.ctx.deps.redis)) {
        const [, keys] = await node.scan(
          '0',
          'MATCH',
          `${world.ctx.config.redisKeyPrefix}*`,
          'COUNT',
          10_000,
        );
        if (keys.length > 0) n += 1;
      }
      return n;
    };
    for (let i = 0; i < SIGNIN_LIMIT - 2 && (await holders()) < 2; i++) {
      const other = await world.tenant();
      expectStatus(
        await call(world.url, 'POST', '/updates/check', {
          body: { app_id: other.appId, device_id: 'spread-device' },
        }),
        200,
      );
    }
    expect(await holders()).toBeGreaterThanOrEqual(2);

    // Shared rate limits (Lua on the counter's shard): past SIGNIN_LIMIT sign-ins of a minute from this
    // address (the sign-ups above included) one is refused; within 2 × the limit + 1 attempts, whatever
    // minute the counter's window started in.
    const statuses: number[] = [];
    for (let i = 0; i <= 2 * SIGNIN_LIMIT && !statuses.includes(429); i++) {
      const attempt = await call(world.url, 'POST', '/auth/signin', {
        body: { email: 'nobody@example.com', password: 'wrong password' },
      });
      statuses.push(attempt.status);
    }
    expect(statuses).toContain(429);
  });
});
