/** The body of an `application/problem+json` answer; the service always sets `code` and `detail`. */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  [key: string]: unknown;
}

/** The service answered with a 4xx or 5xx. `body` is the parsed problem (or the raw text when not JSON). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly body: ProblemBody | string | null;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    code: string;
    detail: string;
    body: ProblemBody | string | null;
    method: string;
    url: string;
  }) {
    super(init.detail);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.body = init.body;
    this.method = init.method;
    this.url = init.url;
  }

  /** A plan gate (402): `detail` is the plain-language upgrade message. */
  get isUpgradeRequired(): boolean {
    return this.status === 402;
  }
}

/** No HTTP answer at all: the server is unreachable, the connection broke, or the attempt timed out. */
export class NetworkError extends Error {
  readonly url: string;
  readonly timedOut: boolean;

  constructor(url: string, cause: unknown, timedOut = false) {
    super(
      timedOut
        ? `The server at ${originOf(url)} did not answer in time.`
        : `The server at ${originOf(url)} is unreachable (${causeText(cause)}).`,
      { cause },
    );
    this.name = 'NetworkError';
    this.url = url;
    this.timedOut = timedOut;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Node's fetch hides the socket error (ECONNREFUSED, ENOTFOUND) one level down in `cause`. */
function causeText(cause: unknown): string {
  const inner = (cause as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (inner?.code) return inner.code;
  if (inner?.message) return inner.message;
  return cause instanceof Error ? cause.message : String(cause);
}

/** Builds the typed error from a non-2xx answer's status and body text. */
export function apiErrorFrom(
  status: number,
  statusText: string,
  contentType: string,
  text: string,
  method: string,
  url: string,
): ApiError {
  let body: ProblemBody | string | null = text === '' ? null : text;
  if (/json/i.test(contentType) && text !== '') {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as ProblemBody;
    } catch {
      // a proxy's broken JSON stays as text
    }
  }
  const problem = typeof body === 'object' && body !== null ? body : undefined;
  const code = typeof problem?.code === 'string' ? problem.code : `http_${status}`;
  const detail =
    (typeof problem?.detail === 'string' && problem.detail) ||
    (typeof problem?.title === 'string' && problem.title) ||
    (typeof body === 'string' && body.slice(0, 500)) ||
    statusText ||
    `HTTP ${status}`;
  return new ApiError({ status, code, detail, body, method, url });
}
