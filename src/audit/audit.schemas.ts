import { Type } from '@sinclair/typebox';
import { ref } from '../http/openapi.js';
import { Timestamp, Uuid } from '../http/schemas.js';
import { CANONICAL_UUID } from '../http/validation.js';
import { AUDIT_ACTIONS } from './audit.actions.js';

export const AUDIT_MAX_LIMIT = 200;
export const AUDIT_DEFAULT_LIMIT = 50;

export const AuditQuerySchema = Type.Object(
  {
    action: Type.Optional(
      Type.Union(
        AUDIT_ACTIONS.map((a) => Type.Literal(a)),
        { description: 'only entries of this exact action' },
      ),
    ),
    app_id: Type.Optional(
      Type.String({
        description: "only entries about this app; it must be an app of the caller's workspace",
        [CANONICAL_UUID]: true,
      }),
    ),
    limit: Type.Integer({
      minimum: 1,
      maximum: AUDIT_MAX_LIMIT,
      default: AUDIT_DEFAULT_LIMIT,
      description: 'entries per page, 1-200',
    }),
    offset: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 0,
      description: 'entries to skip, newest first; past the end gives an empty page',
    }),
  },
  { additionalProperties: false },
);

export const AuditEntry = Type.Object(
  {
    id: Uuid,
    actor: Type.String({ description: "the user's e-mail, or `api-key` for API-key calls" }),
    action: Type.String(),
    workspace_id: Uuid,
    app_id: Type.Union([Uuid, Type.Null()]),
    details: Type.Object({}, { additionalProperties: true, description: 'old and new values' }),
    created_at: Timestamp,
  },
  { $id: 'AuditEntry' },
);

export const AuditPageResponse = Type.Object(
  {
    entries: Type.Array(ref(AuditEntry)),
    limit: Type.Integer(),
    offset: Type.Integer(),
    next_offset: Type.Union([Type.Integer(), Type.Null()], { description: 'null on the last page' }),
  },
  { $id: 'AuditPage' },
);

export const ChainReportResponse = Type.Object({
  workspace_id: Uuid,
  ok: Type.Boolean(),
  entries: Type.Integer({ description: 'entries checked, up to and including the first broken one' }),
  first_broken_seq: Type.Union([Type.Integer(), Type.Null()]),
  first_broken_id: Type.Union([Uuid, Type.Null()]),
  reason: Type.Union([Type.Literal('hash_mismatch'), Type.Literal('prev_hash_mismatch'), Type.Null()]),
  head_hash: Type.String({ description: 'hash of the newest entry that verified' }),
});
