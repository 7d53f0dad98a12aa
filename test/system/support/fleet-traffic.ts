import { call, type Owner } from './http.js';
import { Traffic } from './traffic.js';

/**
 * Device telemetry in `lanes` concurrent senders: batches of `size` activations with ids unique to the
 * run, all for one module. A refused batch is sent again with the same ids until taken, as the SDK does, so
 * after stop() `accepted` is every event sent, and ClickHouse must hold each of them exactly once.
 */
export function telemetry(
  base: string | (() => string),
  appId: string,
  moduleId: string,
  lanes = 3,
  size = 100,
) {
  const state = { accepted: 0 };
  const tag = Math.random().toString(36).slice(2, 8);
  const traffic = new Traffic('events').start(
    lanes,
    (lane, n) =>
      call(typeof base === 'string' ? base : base(), 'POST', '/devices/events', {
        body: {
          app_id: appId,
          events: Array.from({ length: size }, (_, i) => ({
            id: `${tag}-${lane}-${n}-${i}`,
            device_id: `device-${lane}-${i}`,
            module_id: moduleId,
            type: 'activation',
          })),
        },
      }),
    { pauseMs: 20, retryRefused: true, onSuccess: (a) => (state.accepted += a.body.accepted) },
  );
  return { traffic, state };
}

/** Releases pushed one after another (each a release.pushed event); `pushed` holds the 201 answers' ids. */
export function pushes(
  base: string | (() => string),
  owner: Owner,
  appId: string,
  sha256: string,
  pauseMs = 100,
) {
  const pushed: string[] = [];
  const traffic = new Traffic('pushes').start(
    1,
    (_lane, n) =>
      call(typeof base === 'string' ? base : base(), 'POST', '/modules', {
        headers: owner.headers,
        // A version of its own per push (versions are unique per app and channel), apart from any the test
        // pushed itself.
        body: { app_id: appId, version: `traffic.${n}`, sha256 },
      }),
    { pauseMs, onSuccess: (a) => pushed.push(a.body.id) },
  );
  return { traffic, pushed };
}
