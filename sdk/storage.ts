import type { DeviceEvent } from '@ota/client/types';

/**
 * Where the offline event queue survives an app restart. Implement it over AsyncStorage, MMKV, SQLite or
 * a file; `keyValueStorage` adapts anything with getItem/setItem.
 */
export interface EventStorage {
  load(): Promise<DeviceEvent[] | undefined>;
  save(events: readonly DeviceEvent[]): Promise<void>;
}

/** Keeps the queue in memory only (events queued while offline are lost if the app is killed). */
export class MemoryStorage implements EventStorage {
  private events: DeviceEvent[] | undefined;

  async load(): Promise<DeviceEvent[] | undefined> {
    return this.events ? [...this.events] : undefined;
  }

  async save(events: readonly DeviceEvent[]): Promise<void> {
    this.events = [...events];
  }
}

export interface KeyValueStore {
  getItem(key: string): Promise<string | null | undefined>;
  setItem(key: string, value: string): Promise<void>;
}

/** Stores the queue as JSON under one key of an AsyncStorage-like store. */
export function keyValueStorage(store: KeyValueStore, key = 'ota.events'): EventStorage {
  return {
    async load() {
      const raw = await store.getItem(key);
      if (!raw) return undefined;
      try {
        const parsed: unknown = JSON.parse(raw);
        return Array.isArray(parsed) ? parsed.filter(isEvent) : undefined;
      } catch {
        return undefined; // a damaged entry must not stop the app from starting
      }
    },
    async save(events) {
      await store.setItem(key, JSON.stringify(events));
    },
  };
}

function isEvent(value: unknown): value is DeviceEvent {
  const e = value as Partial<DeviceEvent> | null;
  return (
    !!e &&
    typeof e.id === 'string' &&
    typeof e.device_id === 'string' &&
    (e.module_id === undefined || e.module_id === null || typeof e.module_id === 'string') &&
    (e.type === 'download' || e.type === 'activation' || e.type === 'error')
  );
}
