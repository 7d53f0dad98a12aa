import type { Plan } from '../plans/plans.js';
import type { BinaryRange } from '../releases/binary-range.js';
import type { AnswerMemo } from './answer-memo.js';

/**
 * The slots a protocol adapter adds to an app's routing entry (Expo's releases, CodePush's packages, the
 * served deltas). Routing defines the slot map and never names an adapter's types: each adapter declares
 * its own key, with the type it keeps there, by merging into this interface from its own folder
 * (`declare module '../routing/routing.types.js'`), and fills it through a RouteSlotLoader
 * (routing.source.ts). A slot is a plain optional property of the entry, set once per routing-cache load,
 * so the update check reads it like any other field.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the adapters declare the members (declaration merging).
export interface RouteSlots {}

/** The same for one routed release (Capacitor's checksum and keys). */
// biome-ignore lint/suspicious/noEmptyInterface: the adapters declare the members (declaration merging).
export interface ReleaseSlots {}

/** What the update check needs of a release; built once per routing-cache load. */
export interface RoutedRelease extends ReleaseSlots {
  id: string;
  version: string;
  rolloutPct: number;
  /** Null: any native shell; otherwise only devices reporting this fingerprint. */
  fingerprint: string | null;
  /** Null: any native app version; otherwise only devices whose `app_version` it admits. */
  binaryRange: BinaryRange | null;
  mandatory: boolean;
  /** Offered only to devices that say they run it (resolve.ts). */
  paused: boolean;
  notes: string;
  sha256: string;
  size: number;
  /** Absolute download URL of the bundle. */
  url: string;
  /** The signed canonical manifest of a release signed on the developer's machine; absent when unsigned. */
  signature?: ReleaseSignature;
  /** CRC32 of the bytes (8 lower-case hex): the checksum older Capacitor plugins compare; absent when unknown. */
  crc32?: string;
  /** Answers made from this release (answer-memo.ts). */
  answers: AnswerMemo;
}

/** What /updates/check sends with a signed release; the SDK verifies `sig` over `manifest` (UTF-8). */
export interface ReleaseSignature {
  manifest: string;
  sig: string;
  keyid: string;
  alg: 'rsa-v1_5-sha256';
}

/**
 * A device override as a check applies it (src/overrides/): a channel the device is served from, or a
 * release it is pinned to. `release` is the active bundle release of that id, null when it was rolled back
 * or is not a bundle release (an Expo release: the Expo adapter finds its own by `moduleId`).
 */
export type RoutedOverride =
  | { kind: 'channel'; channel: string }
  | { kind: 'release'; moduleId: string; release: RoutedRelease | null };

/** Everything an update check needs to know about one app, held in memory by the routing cache. */
export interface AppRoute extends RouteSlots {
  appId: string;
  workspaceId: string;
  plan: Plan;
  /** Channel name -> its active releases, newest first, cut after the first one that admits everyone. */
  channels: ReadonlyMap<string, readonly RoutedRelease[]>;
  /** CodePush deployment keys of the app -> the channel each names (deleted keys are absent; none: none). */
  deploymentKeys?: ReadonlyMap<string, string>;
  /**
   * Ids of the app's releases on any channel, active or not (the newest MAX_KNOWN_MODULES): the modules
   * a device may report events for or say it runs.
   */
  modules: ReadonlySet<string>;
  /**
   * Device id -> its override, absent when the app has none: a check of a device without one costs a map
   * lookup at most, never a query.
   */
  overrides?: ReadonlyMap<string, RoutedOverride>;
  /**
   * Channels other than production that allow device self-assignment (src/channels/channel-rules.ts);
   * absent when none does.
   */
  selfAssignable?: ReadonlySet<string>;
  /**
   * Channels deleted (DELETE /apps/{id}/channels/{name}) and not made again by a push, absent when none:
   * a device that asks for one is served the default channel (src/overrides/device-override.ts).
   */
  deletedChannels?: ReadonlySet<string>;
  /** Answers made from the app's state rather than one release (answer-memo.ts). */
  answers: AnswerMemo;
  /**
   * Epoch ms after which the state must not be served any more: its download URLs (presigned, BLOB_STORE
   * =s3) are then past half their lifetime. Absent: URLs that never expire.
   */
  handOutUntil?: number;
}

/** Where the routing cache loads an app from on a miss (Postgres in production). */
export interface RoutingSource {
  /** The app's routing state, or null when no such app exists. */
  load(appId: string): Promise<AppRoute | null>;
}
