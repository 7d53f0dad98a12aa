import { randomBytes } from 'node:crypto';
import type { Logger } from '../platform/logger.js';
import { tsvField } from './event-rows.js';
import type { AcceptedBatch, EventsStore } from './events.store.js';

/** One update check, counted for analytics (series `checks`, and eligible devices of a channel). */
export interface CheckRecord {
  appId: string;
  deviceId: string;
  channel: string;
  /** The module the device runs after the check: the release served, else its current module, else null. */
  moduleId: string | null;
  /**
   * The device's native app version as the check read it (normalised, normalizeAppVersion), or absent when
   * it sent none. Written in the row's `message` column, which checks have no other use for, so the
   * eligible devices of a release with a binary range are those whose version the range admits.
   */
  appVersion?: string | undefined;
  /** Epoch milliseconds; defaults to now. */
  at?: number;
}

// Checks have no client id: each gets one unique to this process and call, written into the stream entry,
// so a re-delivered entry re-inserts the same ids (collapsed by ClickHouse). '/' never occurs in client ids.
const PROCESS_TAG = randomBytes(6).toString('hex');
let sequence = 0;

/** One stream entry holds at most this many checks of one app. */
export const CHECKS_PER_ENTRY = 500;

/** Room a row can take in UTF-8: at most 3 bytes per UTF-16 code unit. */
const worstBytes = (row: string) => row.length * 3;
// An app's buffer starts small and doubles as its rows need: an app with a check now and then holds 2 KB
// until the flush, a busy one a buffer for its whole slice (500 rows of about 130 bytes).
const FIRST_BUFFER_BYTES = 2 * 1024;
const MAX_BUFFER_BYTES = 128 * 1024;

/**
 * The checks of one app as the TabSeparated rows of `check` events (event-rows.ts, ROW_COLUMNS), written
 * into a buffer as each check is recorded. Nothing is kept per check on the heap: a check's record and row
 * die young, where a buffered record lived until the next flush, long enough to be copied by the garbage
 * collector and marked in the old generation, and the flush had 5,000 of them to encode at once. In a loop
 * of recorded checks this costs 1.0-1.4 µs a check against 1.5-1.6 before (bench/profiles.md).
 */
class AppCheckRows {
  private bytes = Buffer.allocUnsafeSlow(FIRST_BUFFER_BYTES);
  private length = 0;
  private rows = 0;
  private readonly appField: string;

  constructor(private readonly appId: string) {
    this.appField = tsvField(appId);
  }

  /** Adds a check's row; a full slice (or buffer) is sealed into `sealed` first. */
  add(check: CheckRecord, at: number, sealed: AcceptedBatch[]): void {
    sequence += 1;
    const seconds = Math.floor(at / 1000);
    // A check is received when it is made: its time and its received time are the same second.
    const row = `${seconds}\t${seconds}\t${this.appField}\t${tsvField(check.moduleId ?? '')}\t${tsvField(check.deviceId)}\tcheck/${PROCESS_TAG}/${at}/${sequence}\tcheck\t${tsvField(check.channel)}\t${check.appVersion === undefined ? '' : tsvField(check.appVersion)}\n`;
    if (this.rows >= CHECKS_PER_ENTRY) this.seal(sealed, at);
    this.makeRoom(worstBytes(row), sealed, at);
    this.length += this.bytes.write(row, this.length, 'utf8');
    this.rows += 1;
  }

  /** Room for `need` more bytes: the buffer grown up to MAX_BUFFER_BYTES, else the rows so far sealed. */
  private makeRoom(need: number, sealed: AcceptedBatch[], at: number): void {
    if (this.length + need <= this.bytes.length) return;
    if (this.length + need > MAX_BUFFER_BYTES) {
      this.seal(sealed, at);
      if (need <= this.bytes.length) return;
    }
    const size = Math.max(this.length + need, Math.min(MAX_BUFFER_BYTES, 2 * this.bytes.length));
    const grown = Buffer.allocUnsafeSlow(size);
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  /** Moves the rows written so far into `sealed` as one entry, received at `now`. */
  seal(sealed: AcceptedBatch[], now: number): void {
    if (this.rows === 0) return;
    sealed.push({
      appId: this.appId,
      receivedMs: now,
      // Checks feed no failure counter (only activations and errors do).
      encoded: { text: this.bytes.toString('utf8', 0, this.length), rows: this.rows, counters: [] },
    });
    this.length = 0;
    this.rows = 0;
  }
}

/**
 * Encodes checks as `check` events, one stream entry per app and CHECKS_PER_ENTRY checks, and keeps the
 * entries until they are taken. App ids are written in lower case.
 */
export class CheckRows {
  private readonly apps = new Map<string, AppCheckRows>();
  private sealed: AcceptedBatch[] = [];
  private sealedRows = 0;

  add(check: CheckRecord, at: number): void {
    let rows = this.apps.get(check.appId);
    if (rows === undefined) {
      // One entry per app however its id was spelled; the map holds the spellings seen since the last
      // take (the update check passes its route's id, in lower case already).
      const appId = check.appId.toLowerCase();
      rows = this.apps.get(appId) ?? new AppCheckRows(appId);
      this.apps.set(appId, rows);
      this.apps.set(check.appId, rows);
    }
    const before = this.sealed.length;
    rows.add(check, at, this.sealed);
    if (this.sealed.length !== before) this.sealedRows += CHECKS_PER_ENTRY;
  }

  /** Checks in sealed entries (about: a slice sealed early for lack of room counts as a full one). */
  get pending(): number {
    return this.sealedRows;
  }

  /** Every entry, the open ones sealed at `now`; afterwards nothing is kept. */
  take(now: number): AcceptedBatch[] {
    for (const rows of new Set(this.apps.values())) rows.seal(this.sealed, now);
    const entries = this.sealed;
    this.sealed = [];
    this.sealedRows = 0;
    this.apps.clear();
    return entries;
  }
}

/**
 * Appends checks to the device event stream as `check` events, in entries of at most CHECKS_PER_ENTRY checks of
 * one app, all in one round trip. The ingest workers store them like device events.
 */
export async function recordChecks(
  events: EventsStore,
  checks: readonly CheckRecord[],
  now: number = Date.now(),
): Promise<void> {
  const rows = new CheckRows();
  for (const check of checks) rows.add(check, check.at ?? now);
  const entries = rows.take(now);
  if (entries.length > 0) await events.append(entries);
}

/**
 * Encodes checks as they are recorded and writes them every flushMs (or once maxBuffered are waiting), so
 * the update check itself never waits on this. A failed write is logged and dropped: checks feed
 * estimates, not billing.
 */
export class CheckRecorder {
  private rows = new CheckRows();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly events: EventsStore,
    private readonly log: Logger,
    private readonly options: { flushMs?: number; maxBuffered?: number } = {},
  ) {}

  record(check: CheckRecord): void {
    this.rows.add(check, check.at ?? Date.now());
    if (this.rows.pending >= (this.options.maxBuffered ?? 5000)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 1000).unref();
  }

  /** Writes what is recorded; resolves when every earlier flush has finished too. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const entries = this.rows.take(Date.now());
    this.flushing = this.flushing.then(async () => {
      if (entries.length === 0) return;
      await this.events.append(entries).catch((err: unknown) => {
        const checks = entries.reduce((sum, entry) => sum + entry.encoded.rows, 0);
        this.log.warn({ err, checks }, 'update checks not recorded');
      });
    });
    return this.flushing;
  }
}
