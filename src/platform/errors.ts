/**
 * The one error type of the service. Handlers and services throw it; the HTTP error handler turns it into
 * application/problem+json with a stable `code`.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const badRequest = (detail: string, code = 'invalid_request', extra?: Record<string, unknown>) =>
  new AppError(400, code, detail, extra);
export const unauthorized = (
  detail = 'A valid identity token or API key is required.',
  code = 'unauthorized',
) => new AppError(401, code, detail);
export const paymentRequired = (detail: string, extra?: Record<string, unknown>) =>
  new AppError(402, 'plan_upgrade_required', detail, extra);
export const forbidden = (detail = 'Your role does not allow this action.', code = 'forbidden') =>
  new AppError(403, code, detail);
export const notFound = (what: string, code = 'not_found') =>
  new AppError(404, code, `${what} was not found.`);
export const conflict = (detail: string, code = 'conflict') => new AppError(409, code, detail);
export const gone = (detail: string, code = 'gone') => new AppError(410, code, detail);
export const payloadTooLarge = (detail: string) => new AppError(413, 'payload_too_large', detail);
export const unavailable = (detail: string, code = 'service_unavailable') => new AppError(503, code, detail);

export const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [key: string]: unknown;
}

export function problem(
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
): Problem {
  return {
    type: `urn:ota:problem:${code}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...extra,
  };
}
