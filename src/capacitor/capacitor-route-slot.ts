import { type RouteSlotLoader, reachable } from '../routing/routing.source.js';
import type { RoutedRelease } from '../routing/routing.types.js';

/**
 * A Capacitor release's `checksum` (the zip's SHA-256, or that digest signed with the developer's key) and,
 * for an encrypted release, its `session_key` and the id of the key (docs/reference/capacitor-protocol.md).
 */
export interface RoutedCapacitor {
  checksum: string;
  sessionKey: string | null;
  keyId: string | null;
}

declare module '../routing/routing.types.js' {
  interface ReleaseSlots {
    /** What a Capacitor device receives besides the bytes, when the release was pushed as one. */
    capacitor?: RoutedCapacitor;
  }
}

/**
 * The Capacitor adapter's slot of each routed release, from the release's row; and its audience: Capacitor
 * devices are told apart by the key a release was made with (capacitor-rules.ts).
 */
export const capacitorRouteSlot: RouteSlotLoader = {
  release: (row, release) => {
    if (row.capacitor_checksum !== null) {
      release.capacitor = {
        checksum: row.capacitor_checksum,
        sessionKey: row.capacitor_session_key,
        keyId: row.capacitor_key_id,
      };
    }
  },
  audienceOf: (release) => release.capacitor?.keyId ?? null,
};

/** The releases of a channel a Capacitor device may still reach, as the routing load keeps them. */
export function reachableByKey<T extends RoutedRelease>(newestFirst: readonly T[]): T[] {
  return reachable(newestFirst, capacitorRouteSlot.audienceOf);
}
