import { ApiError, NetworkError } from '@ota/client/errors';

/** A problem found before or without the server: bad arguments, no credentials, an unreadable file. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Exit codes, documented in docs/guides/cli.md. */
export const EXIT = {
  ok: 0,
  /** The service refused the request (4xx/5xx), including a plan gate (402). */
  refused: 1,
  /** Bad arguments, missing login, unreadable file. */
  usage: 2,
  /** No answer from the server. */
  unreachable: 3,
  /** --fail-if-incompatible: no device seen lately could run the release; nothing was released. */
  incompatible: 3,
} as const;

export interface ErrorReport {
  exitCode: number;
  text: string;
  json: Record<string, unknown>;
}

/** Turns any failure into the message a person reads, the object a script reads, and an exit code. */
export function describeError(err: unknown): ErrorReport {
  if (err instanceof ApiError) {
    const json = { error: { status: err.status, code: err.code, detail: err.detail } };
    // A plan gate's message is written for people already ("... Upgrade with `ota plan set pro` …"): as is.
    if (err.status === 402) return { exitCode: EXIT.refused, text: err.detail, json };
    let text = `Error: ${err.detail} (HTTP ${err.status}, ${err.code})`;
    // A wrong e-mail or password is answered as such; "sign in again" is for a key that stopped working.
    if (err.status === 401 && err.code !== 'invalid_credentials')
      text += '\nRun `ota login` to sign in again.';
    return { exitCode: EXIT.refused, text, json };
  }
  if (err instanceof NetworkError) {
    return {
      exitCode: EXIT.unreachable,
      text: `Error: ${err.message}\nCheck the address (--api-url or OTA_API_URL) and that the server is running.`,
      json: { error: { code: err.timedOut ? 'timeout' : 'unreachable', detail: err.message } },
    };
  }
  if (err instanceof CliError) {
    return {
      exitCode: err.exitCode,
      text: `Error: ${err.message}`,
      json: { error: { code: 'cli_error', detail: err.message } },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    exitCode: EXIT.usage,
    text: `Error: ${message}`,
    json: { error: { code: 'error', detail: message } },
  };
}
