import { Queue, type QueueOptions } from 'bullmq';

/** How long a use waits for a new queue's connection check before answering that Redis is away. */
const CHECK_DEADLINE_MS = 2000;

/**
 * A BullMQ queue that jobs are added to, made again when its connection check failed.
 *
 * BullMQ checks a queue's connection once, when the queue is made (it asks Redis for its version), and
 * keeps the outcome: a queue made in the instant Redis went away, while the shared connection still looked
 * ready, rejects every later call with that first error, even once Redis is back and other queues on the
 * same connection work again. (Seen as webhook retries never enqueued after a Redis restart.) So each use
 * first awaits the queue's check, and a queue whose check failed is dropped: the next use makes a fresh
 * one. A queue made while Redis is away waits for it without end (BullMQ's check has no deadline), so a use
 * gives up after CHECK_DEADLINE_MS with an error the API answers 503, as a command would, and the queue is
 * kept for the next use: its check goes on once Redis is back.
 */
export class ProducerQueue<T = unknown> {
  private queue: Queue<T> | undefined;
  /** The queue whose check has passed. */
  private checked: Queue<T> | undefined;

  constructor(
    private readonly name: string,
    private readonly options: QueueOptions,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  /**
   * The queue, once its connection check has passed. Throws the check's error (and drops the queue), or a
   * timeout when the check has not finished within CHECK_DEADLINE_MS (the queue is kept).
   */
  async ready(): Promise<Queue<T>> {
    // A queue whose check passed stays good (BullMQ keeps that outcome too): no deadline timer per job.
    if (this.queue !== undefined && this.queue === this.checked) return this.queue;
    const queue = this.open();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), CHECK_DEADLINE_MS);
    });
    const check = queue.waitUntilReady().then(
      () => 'ready' as const,
      (err: unknown) => ({ err }),
    );
    const outcome = await Promise.race([check, deadline]).finally(() => clearTimeout(timer));
    if (outcome === 'ready') {
      if (this.queue === queue) this.checked = queue;
      return queue;
    }
    if (outcome === 'late') {
      throw Object.assign(
        new Error(`Redis did not answer within ${CHECK_DEADLINE_MS} ms (job queue check)`),
        {
          code: 'ETIMEDOUT',
        },
      );
    }
    if (this.queue === queue) this.queue = undefined;
    // With a shared connection this only takes the queue's listeners off it.
    await queue.close().catch(() => {});
    throw outcome.err;
  }

  async close(): Promise<void> {
    const queue = this.queue;
    this.queue = undefined;
    this.checked = undefined;
    await queue?.close();
  }

  private open(): Queue<T> {
    if (!this.queue) {
      this.queue = new Queue<T>(this.name, this.options);
      // Without a listener BullMQ prints connection errors to stderr while Redis is away.
      this.queue.on('error', this.onError);
    }
    return this.queue;
  }
}
