import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DEPENDENCY_RETRY_AFTER_SECONDS, isDependencyUnavailable } from '../platform/dependency-errors.js';
import { AppError, problem } from '../platform/errors.js';

const CLIENT_ERROR_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'malformed_json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'malformed_json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_content_length'],
  FST_ERR_CTP_INVALID_TYPE: [400, 'invalid_content_type'],
  FST_ERR_CTP_EMPTY_TYPE: [400, 'invalid_content_type'],
  FST_ERR_BAD_URL: [400, 'bad_url'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'uri_too_long'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'bad_request'],
  FST_ERR_VALIDATION: [400, 'invalid_request'],
};

export function sendProblem(
  reply: FastifyReply,
  status: number,
  code: string,
  detail: string,
  extra?: Record<string, unknown>,
) {
  return reply
    .status(status)
    .type('application/problem+json')
    .send(problem(status, code, detail, extra));
}

/** The one error handler: every error leaves as application/problem+json with a stable `code`. */
export function errorHandler(
  error: FastifyError | AppError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof AppError) {
    if (error.status >= 500) request.log.error({ err: error }, 'request failed');
    if (error.status === 503) reply.header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    if (error.status === 429 && typeof error.extra.retry_after === 'number')
      reply.header('retry-after', String(error.extra.retry_after));
    return sendProblem(reply, error.status, error.code, error.detail, error.extra);
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    const where = fe.validationContext ?? 'request';
    const first = fe.validation[0];
    const path = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
    const missing =
      first?.keyword === 'required'
        ? String((first.params as { missingProperty?: string }).missingProperty)
        : '';
    const field = [path, missing].filter(Boolean).join('.');
    const message = allowedValues(fe.validation, first?.instancePath) ?? first?.message ?? fe.message;
    const detail = `Invalid ${where}${field ? ` field "${field}"` : ''}: ${message}.`;
    return sendProblem(
      reply,
      400,
      'invalid_request',
      detail,
      field ? { field, location: where } : { location: where },
    );
  }
  const known = fe.code ? CLIENT_ERROR_CODES[fe.code] : undefined;
  if (known) return sendProblem(reply, known[0], known[1], cleanMessage(fe.message));
  if (fe.statusCode === 429) {
    return sendProblem(
      reply,
      429,
      'rate_limited',
      cleanMessage(fe.message) || 'Too many requests; retry later.',
    );
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return sendProblem(reply, fe.statusCode, 'bad_request', cleanMessage(fe.message));
  }
  if (isDependencyUnavailable(error)) {
    request.log.error({ err: error }, 'dependency unavailable');
    reply.header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    return sendProblem(
      reply,
      503,
      'dependency_unavailable',
      'A backing service is unavailable; retry shortly.',
    );
  }
  request.log.error({ err: error }, 'request failed');
  return sendProblem(reply, 500, 'internal_error', 'An unexpected error occurred; it has been logged.');
}

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/**
 * A field that takes one of a list (a union of literals fails as one `const` error per branch, an `enum`
 * as one error) is answered with the list: "must be equal to constant" tells a person nothing.
 */
function allowedValues(issues: ValidationIssue[], path: string | undefined): string | undefined {
  const values: unknown[] = [];
  for (const issue of issues) {
    if (issue.instancePath !== path) continue;
    const params = issue.params as { allowedValue?: unknown; allowedValues?: unknown[] };
    if (issue.keyword === 'const') values.push(params.allowedValue);
    if (issue.keyword === 'enum') values.push(...(params.allowedValues ?? []));
  }
  if (values.length === 0) return undefined;
  return `must be one of: ${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`;
}

function cleanMessage(message: string): string {
  return message.replace(/^FST_[A-Z_]+:?\s*/, '');
}
