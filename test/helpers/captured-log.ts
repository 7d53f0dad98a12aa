import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';

/** A pino logger at `info` whose lines are kept, parsed, for a test to read. */
export function capturedLog(): { lines: Array<Record<string, unknown>>; log: Logger } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, sink) };
}
