import type { AttemptOutcome } from '../src/webhooks/delivery.processor.js';
import type { AttemptJob } from '../src/webhooks/delivery-queue.js';
import type { GateDecision } from '../src/webhooks/endpoint-gate.js';

export interface ChunkSteps {
  /** The endpoint's gate (EndpointGate.enter). */
  enter(webhookId: string): Promise<GateDecision>;
  /** One attempt; `leave` ends the endpoint's turn once its request is done. */
  attempt(job: AttemptJob, leave: () => void): Promise<AttemptOutcome>;
  /** Hands attempts not started back to the queue, due at `retryAt` (epoch ms). */
  handBack(attempts: AttemptJob[], retryAt: number): Promise<void>;
}

/**
 * Runs a chunk's attempts in order, as many at once as the endpoint's gate lets in. When the endpoint is
 * full for longer than the gate waits, the rest is handed back (answers `{ deferredAt }` when nothing was
 * started, so the job itself goes back). If an attempt failed, throws its error once all have settled, so
 * the job fails and BullMQ runs it again (finished deliveries are then skipped as stale).
 *
 * Each running attempt gets its rejection handler at once: the loop may still be waiting at the gate when
 * an attempt fails (its delivery could not be read while Postgres dropped connections), and a rejection
 * without a handler by then ends the worker process.
 */
export async function runChunk(
  attempts: readonly AttemptJob[],
  steps: ChunkSteps,
): Promise<{ deferredAt: number } | undefined> {
  const running: Array<Promise<unknown>> = [];
  let failure: { error: unknown } | undefined;
  for (const [i, next] of attempts.entries()) {
    const turn = await steps.enter(next.webhookId);
    if (turn.entered) {
      running.push(
        steps
          .attempt(next, turn.leave)
          .finally(turn.leave)
          .catch((error: unknown) => {
            failure ??= { error };
          }),
      );
      continue;
    }
    if (i === 0) return { deferredAt: turn.retryAt };
    await steps.handBack(attempts.slice(i), turn.retryAt);
    break;
  }
  await Promise.all(running);
  if (failure) throw failure.error;
  return undefined;
}
