export { ApiError, NetworkError } from '@ota/client/errors';
export type { AvailableUpdate, DeviceEvent, DeviceEventType } from '@ota/client/types';
export { bucket, inRollout } from './bucket.js';
export { EventQueue, type EventQueueOptions, type FlushResult, isPermanent } from './event-queue.js';
export { Sha256, sha256, sha256Hex, toHex, utf8 } from './sha256.js';
export { parsePublicKey, type RsaPublicKey, SignatureError, verifyRsaSha256 } from './signature.js';
export { type EventStorage, type KeyValueStore, keyValueStorage, MemoryStorage } from './storage.js';
export {
  type CheckResult,
  IntegrityError,
  newEventId,
  OtaUpdates,
  type OtaUpdatesOptions,
} from './updates.js';
