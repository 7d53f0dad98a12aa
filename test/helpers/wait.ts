export interface WaitOptions {
  /** How long to keep asking before failing (default 30 s: only a broken run waits that long). */
  timeoutMs?: number;
  /** Pause between two probes. */
  intervalMs?: number;
}

/**
 * Tests wait on conditions, never on fixed sleeps: polls `probe` until it answers something other than
 * undefined, null or false, and returns that. A probe that throws counts as "not yet" (a server coming
 * back refuses connections for a while). Past the deadline it fails, naming what it waited for and the
 * last error, so a slow machine costs time, never a wrong verdict.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  options: WaitOptions = {},
): Promise<Exclude<T, undefined | null | false>> {
  const { timeoutMs = 30_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false)
        return value as Exclude<T, undefined | null | false>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
