import type { ServerResponse } from 'node:http';

/**
 * The lanes' answers of one turn of the event loop, sent together once the turn has read and served every
 * request that was ready (`setImmediate` runs right after the I/O phase). A loaded server serves many
 * requests per turn; sent one by one, between the requests, each answer finds its peer (the load balancer,
 * a client on the same host) asleep again and pays for waking it, which the answer's socket write is
 * charged with. Sent back to back, they wake it once per turn, and the TCP send path stays warm. On the
 * two-core benchmark host this took the update check from 49 to 33 µs of API CPU (bench/profiles.md,
 * "Answers sent together"). An idle server has one answer per turn: it leaves at once, one turn later.
 *
 * Only the body waits: the status line and headers are set before (`writeHead`, where Node checks them),
 * so an answer that cannot be sent is known while the lane can still hand its request over.
 */
export class AnswerBatch {
  private responses: ServerResponse[] = [];
  private bodies: (Buffer | undefined)[] = [];
  private scheduled = false;

  /**
   * `max`: a turn that makes more answers than this sends them as soon as there are that many, so an
   * answer waits at most until `max - 1` more lane answers are made (or the turn ends, if sooner), however
   * many requests are ready.
   */
  constructor(private readonly max = 64) {}

  /** Ends `res` with `body` at the end of this turn (its status and headers are already written). */
  end(res: ServerResponse, body: Buffer | undefined): void {
    this.responses.push(res);
    this.bodies.push(body);
    if (this.responses.length >= this.max) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushScheduled);
    }
  }

  /** Answers waiting for the end of the turn. */
  get waiting(): number {
    return this.responses.length;
  }

  private readonly flushScheduled = (): void => {
    this.scheduled = false;
    this.flush();
  };

  /** Sends every waiting answer; one that fails closes its own connection and the others still go. */
  flush(): void {
    const responses = this.responses;
    const bodies = this.bodies;
    this.responses = [];
    this.bodies = [];
    for (let i = 0; i < responses.length; i++) {
      const res = responses[i]!;
      try {
        res.end(bodies[i]);
      } catch {
        res.destroy();
      }
    }
  }
}

/**
 * The process's batch. Module state rather than a part of the containers' object graph: a turn of the event
 * loop belongs to the process, whichever app or lane made the answer, and the batch holds nothing beyond the
 * turn (no dependency, nothing to start or stop; a closing server's answers leave with their turn).
 */
export const answerBatch = new AnswerBatch();
