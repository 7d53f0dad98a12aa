import { Type } from '@sinclair/typebox';
import { ref } from '../http/openapi.js';
import { Timestamp, Uuid } from '../http/schemas.js';

/** Printable text with at least one visible character; no control characters. */
export const AppName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^(?=.*\\S)[^\\x00-\\x1f\\x7f]+$',
});

/** A native-shell fingerprint: 1-128 visible ASCII characters (hashes, build ids, "ios-2.3.1+45"). */
export const Fingerprint = Type.String({ minLength: 1, maxLength: 128, pattern: '^[\\x21-\\x7e]+$' });

export const AppParams = Type.Object({ app_id: Uuid });

export const CreateAppBody = Type.Object({ name: AppName }, { additionalProperties: false });

export const AppSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    workspace_id: Uuid,
    created_at: Timestamp,
  },
  { $id: 'App' },
);

export const FingerprintSchema = Type.Object({ fingerprint: Type.String(), created_at: Timestamp });

export const AppDetailsSchema = Type.Intersect(
  [
    ref(AppSchema),
    Type.Object({ channels: Type.Array(Type.String()), fingerprints: Type.Array(FingerprintSchema) }),
  ],
  { $id: 'AppDetails' },
);

export const RegisterFingerprintBody = Type.Object(
  { fingerprint: Fingerprint },
  { additionalProperties: false },
);
