import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { Stores } from '../../../src/container/container.types.js';
import { DeviceCapGate } from '../../../src/devices/device-cap.js';
import type { CountedDevicesStore } from '../../../src/devices/devices.store.js';
import type { NewRelease } from '../../../src/releases/releases.store.js';
import { createTestContext, signUp, type TestContext } from '../../helpers/context.js';
import { createFakeStores, type FakeStores } from '../../helpers/fakes.js';

/**
 * The two subjects of the store contract tests: the Postgres stores of a test context and their fakes.
 * The same scenarios run against both, so what a unit test on fakes relies on holds for the real thing
 * too. A difference found there is a bug of the fake (or of the interface's comment).
 */
export type Subject = Pick<Stores, Exclude<keyof Stores & keyof FakeStores, 'stats'>> & {
  /** A new workspace on the hobby plan, with its owner as its one member. */
  newWorkspace(): Promise<string>;
  /** The counted devices (Redis) and how a device gets counted: an admitted update check. */
  countedDevices: CountedDevicesStore & { seen(workspaceId: string, deviceId: string): unknown };
  /** Lets time pass between two writes (the fakes' clock stands still otherwise). */
  tick(): void;
};

/** Opens the test context around the file's tests; call it at the top level of a contract test file. */
export function storeSubjects(): Array<[string, () => Subject]> {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx?.close();
  });
  return [
    [
      'postgres',
      () => {
        const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, { windowDays: 30 });
        return {
          ...ctx.deps.stores,
          countedDevices: Object.assign(gate, {
            seen: (workspaceId: string, deviceId: string) =>
              gate.admit(workspaceId, deviceId, 1000, { ip: '127.0.0.1' }),
          }),
          newWorkspace: async () => (await signUp(ctx.app)).workspaceId,
          tick: () => {},
        };
      },
    ],
    [
      'fake',
      () => {
        const fakes = createFakeStores();
        return {
          ...fakes,
          newWorkspace: async () => fakes.workspaces.add().id,
          tick: () => {
            fakes.clock.now += 1000;
          },
        };
      },
    ],
  ];
}

export class Refused extends Error {}

/** A workspace with one app and one uploaded bundle, and a maker of releases of that app and bundle. */
export async function appWithBundle(s: Subject, sha256: string, size: number) {
  const ws = await s.newWorkspace();
  const app = (await s.transaction((tx) => s.apps.insert(tx, ws, `App ${randomUUID().slice(0, 6)}`)))!;
  await s.bundles.record(app.id, sha256, size);
  const release = (version: string, more: Partial<NewRelease> = {}): NewRelease => ({
    workspaceId: ws,
    appId: app.id,
    version,
    channel: 'production',
    rolloutPct: 100,
    mandatory: false,
    notes: '',
    sha256,
    size,
    fingerprint: null,
    targetBinaryRange: null,
    ...more,
  });
  return { ws, app, release };
}
