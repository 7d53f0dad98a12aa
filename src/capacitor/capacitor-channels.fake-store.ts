import type {
  AppRef,
  AssignmentBounds,
  AssignmentOutcome,
  CapacitorChannelsStore,
} from './capacitor-channels.store.js';

/** Capacitor channel assignments in memory, with the app bound (no time or network bound). */
export class FakeCapacitorChannelsStore implements CapacitorChannelsStore {
  readonly rows = new Map<string, string>();

  constructor(private readonly bounds: Pick<AssignmentBounds, 'perApp'> = { perApp: 10_000 }) {}

  async get(app: AppRef, deviceId: string): Promise<string | undefined> {
    return this.rows.get(`${app.appId} ${deviceId}`);
  }

  async set(app: AppRef, deviceId: string, channel: string): Promise<AssignmentOutcome> {
    const key = `${app.appId} ${deviceId}`;
    const held = [...this.rows.keys()].filter((k) => k.startsWith(`${app.appId} `)).length;
    if (!this.rows.has(key) && held >= this.bounds.perApp) return 'app_full';
    this.rows.set(key, channel);
    return 'stored';
  }

  async clear(app: AppRef, deviceId: string): Promise<void> {
    this.rows.delete(`${app.appId} ${deviceId}`);
  }
}
