import { DEVICE_ID_MAX_LENGTH, DEVICE_ID_PATTERN } from '@ota/shared/ids';
import { Type } from '@sinclair/typebox';
import { Timestamp, Uuid } from '../http/schemas.js';

export const DEVICES_MAX_LIMIT = 200;
export const DEVICES_DEFAULT_LIMIT = 50;

export const DevicesQuery = Type.Object(
  {
    limit: Type.Integer({
      minimum: 1,
      maximum: DEVICES_MAX_LIMIT,
      default: DEVICES_DEFAULT_LIMIT,
      description: 'devices per page, 1-200',
    }),
    offset: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 0,
      description: 'devices to skip, most recently seen first; past the end gives an empty page',
    }),
  },
  { additionalProperties: false },
);

export const DeviceParams = Type.Object({
  id: Uuid,
  device_id: Type.String({
    minLength: 1,
    maxLength: DEVICE_ID_MAX_LENGTH,
    pattern: DEVICE_ID_PATTERN,
    description: 'the device id as the device sends it: 1-128 of A-Za-z0-9._:-',
  }),
});

export const CountedDevice = Type.Object({
  device_id: Type.String(),
  last_seen_at: Timestamp,
});

export const DevicesPage = Type.Object({
  devices: Type.Array(CountedDevice),
  total: Type.Integer({ description: 'devices counted against the cap now (seen within the window)' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  next_offset: Type.Union([Type.Integer(), Type.Null()], { description: 'null on the last page' }),
  device_cap: Type.Union([Type.Integer(), Type.Null()], {
    description: "the plan's device cap; null = unlimited (nothing is counted)",
  }),
  window_days: Type.Integer({ description: 'length of the active window, in days' }),
});
