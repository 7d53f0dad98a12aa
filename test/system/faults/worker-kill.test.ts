import { describe, expect, it } from 'vitest';
import { stopChild } from '../../helpers/compiled.js';
import { deliveryReport, eventually, ingestConsumers, pendingOf, summarize } from '../support/checks.js';
import { telemetry } from '../support/fleet-traffic.js';
import { pushRelease } from '../support/http.js';
import { systemWorld } from '../support/world.js';

// The tests start the workers they kill.
const sys = systemWorld({ workers: [] });

/** A workspace of its own for each test (outbox events are per workspace), with an app and a bundle. */
async function tenant() {
  const { owner, ...app } = await sys.world.tenant();
  const push = (version: string) => pushRelease(sys.world.url, owner, app, version);
  return { owner, app, push };
}

describe('worker processes killed with SIGKILL', () => {
  it('ingest: a worker dies holding unacknowledged entries; another claims them and each event is stored once', async () => {
    const { world } = sys;
    const { owner, app, push } = await tenant();
    const module = await push('1.0.0');
    const events = telemetry(world.url, app.appId, module.id);

    // A worker frozen (SIGSTOP) at a moment it holds entries it has read and not acknowledged, then killed:
    // those entries stay pending on its consumer, and only a claim by another worker can store them. What
    // it holds is read after the kill: an acknowledgement it wrote just before it froze can still reach
    // Redis after a read made while it is frozen, and nothing more can come from it once it is dead (but a
    // blocking read it had sent may still add entries). A worker that turns out to hold nothing is replaced.
    const { consumer, held } = await eventually(
      'a worker killed while it holds unacknowledged entries',
      async () => {
        const doomed = world.startWorkers('ingest');
        const name = await eventually(
          'the doomed worker’s consumer',
          async () =>
            (await ingestConsumers(world.ctx.deps)).find((c) => c.name.includes(`-${doomed.pid}-`))?.name,
        );
        await eventually('the doomed worker frozen holding entries', async () => {
          process.kill(doomed.pid!, 'SIGSTOP');
          if ((await pendingOf(world.ctx.deps, name)).length > 0) return true;
          process.kill(doomed.pid!, 'SIGCONT');
          return undefined;
        });
        await stopChild(doomed, 'SIGKILL');
        const ids = await pendingOf(world.ctx.deps, name);
        return ids.length > 0 ? { consumer: name, held: ids } : undefined;
      },
      90_000,
    );
    expect(held.length).toBeGreaterThan(0);

    const successor = world.startWorkers('ingest');
    // The claim is timed from when the new worker has joined the group (its first claim registers it), not
    // from its spawn: a process booting while the other test files load both cores took most of the wait.
    // A failed wait names what the workers printed (a successor that died at start says so there).
    const showingOutput = <T>(wait: Promise<T>) =>
      wait.catch((err: Error) => {
        throw new Error(`${err.message}\nworkers printed:\n${world.workerOutput().slice(-3000)}`);
      });
    await showingOutput(
      eventually(
        'the new worker’s consumer',
        async () =>
          (await ingestConsumers(world.ctx.deps)).some((c) => c.name.includes(`-${successor.pid}-`))
            ? true
            : undefined,
        90_000,
      ),
    );
    await showingOutput(
      eventually('the dead consumer’s entries claimed', async () =>
        (await pendingOf(world.ctx.deps, consumer)).length === 0 ? true : undefined,
      ),
    );
    // The claim moves the entries first and logs after; the line may reach the pipe a moment later.
    await eventually('the claim logged by the new worker', async () =>
      world.workerOutput().includes('claimed entries of an idle consumer') ? true : undefined,
    );
    // Traffic went on across the kill and the claim.
    const acceptedAtClaim = events.state.accepted;
    await eventually('events accepted after the claim', async () =>
      events.state.accepted > acceptedAtClaim ? true : undefined,
    );
    await events.traffic.stop();
    expect(events.traffic.unexpected).toEqual([]);

    await world.expectEachEventOnce(owner, { appId: app.appId, moduleId: module.id }, events.state.accepted);
  });

  it('webhooks: a worker dies with requests in flight; another finishes every delivery, repeats carry the same id and bytes', async () => {
    const { world } = sys;
    const { owner, push } = await tenant();
    const hook = await world.hook(owner, '/slow', ['release.pushed']);
    // Slow answers: the worker is killed while it waits for them.
    world.receiver.fallback = { status: 200, delayMs: 1500 };
    const doomed = world.startWorkers('webhooks');
    for (let i = 0; i < 8; i++) await push(`2.0.${i}`);
    await eventually('requests in flight', async () =>
      world.receiver.at('/slow').length >= 3 ? true : undefined,
    );
    await stopChild(doomed, 'SIGKILL');
    // What the dead worker had sent: read after its death, since it kept sending between a read made
    // before the kill and the kill (a request sent then and repeated later was taken for a stranger's).
    const inFlight = new Set(world.receiver.at('/slow').map((r) => String(r.headers['x-service-delivery'])));
    world.startWorkers('webhooks');

    // The killed worker's jobs are found stalled (their locks lapse) and run again by the new worker.
    const report = await eventually(
      'every delivery made after the kill',
      async () => {
        const r = await deliveryReport(world.ctx.deps, world.receiver, hook.id, hook.path);
        return r.ids.length === 8 && r.statuses.succeeded === 8 ? r : undefined;
      },
      120_000,
    );
    expect(report.received.size, summarize(report)).toBe(8);
    expect(report.unverified).toBe(0);
    // At least once: only a request the dead worker had sent may arrive again, with the same id and bytes,
    // which is what receivers de-duplicate on.
    for (const [id, times] of report.received) {
      if (times === 1) continue;
      expect(inFlight.has(id)).toBe(true);
      const copies = world.receiver.at('/slow').filter((r) => r.headers['x-service-delivery'] === id);
      expect(new Set(copies.map((c) => c.raw.toString())).size).toBe(1);
      expect(new Set(copies.map((c) => c.headers['x-service-signature'])).size).toBe(1);
    }
  });
});
