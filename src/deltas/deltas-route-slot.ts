import type { RouteSlotLoader } from '../routing/routing.source.js';
import { type DeltasStore, SERVED_DELTA_RELEASES, type ServedDeltas } from './deltas.store.js';

declare module '../routing/routing.types.js' {
  interface RouteSlots {
    /** The app's newest releases' folder hashes and deltas, as the deltas store read them. */
    deltas?: ServedDeltas;
  }
}

/**
 * The served deltas of an app, held with its routing entry so no delta is looked up per request. Listed
 * before the adapters that serve them (Expo patches, CodePush diff packages), which read them in `earlier`.
 */
export function deltasRouteSlot(store: Pick<DeltasStore, 'served'>): RouteSlotLoader {
  return {
    load: async (appId) => ({ slots: { deltas: await store.served(appId, SERVED_DELTA_RELEASES) } }),
  };
}
