import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { assertProblem } from './routes.js';

/** Runs per route and property; ABUSE_FUZZ_RUNS raises it for a longer local hunt. */
export const FUZZ_RUNS = Number(process.env.ABUSE_FUZZ_RUNS ?? 40);
const SEED = process.env.ABUSE_FUZZ_SEED === undefined ? undefined : Number(process.env.ABUSE_FUZZ_SEED);

/** Never a 5xx; every 4xx is problem+json with a stable code. */
export function assertHandled(res: LightMyRequestResponse, what: string): void {
  if (res.statusCode >= 500) throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  if (res.statusCode >= 400) assertProblem(res, [res.statusCode], what);
}

/**
 * Checks `property` on `runs` inputs and returns the failure (with fast-check's seed and counterexample)
 * rather than throwing, so one test can report every route that fails. Shrinking is skipped: the inputs
 * are small enough to read, and a failing route would otherwise cost hundreds of requests.
 */
export async function fuzz<T>(
  label: string,
  input: fc.Arbitrary<T>,
  property: (value: T) => Promise<void>,
  runs = FUZZ_RUNS,
): Promise<string | undefined> {
  const details = await fc.check(fc.asyncProperty(input, property), {
    numRuns: runs,
    endOnFailure: true,
    ...(SEED === undefined ? {} : { seed: SEED }),
  });
  if (!details.failed) return undefined;
  const example = JSON.stringify(details.counterexample?.[0])?.slice(0, 400);
  const error = String((details.errorInstance as Error)?.message ?? details.errorInstance).slice(0, 400);
  return `${label} (seed ${details.seed}): ${error}\n  input: ${example}`;
}
