import { Queue, type QueueOptions } from 'bullmq';

/**
 * A BullMQ queue that jobs are added to, made again when its connection check failed.
 *
 * BullMQ checks a queue's connection once, when the queue is made (it asks Redis for its version), and
 * keeps the outcome: a queue made in the instant Redis went away, while the shared connection still looked
 * ready, rejects every later call with that first error, even once Redis is back and other queues on the
 * same connection work again. (Seen as webhook retries never enqueued after a Redis restart.) So each use
 * first awaits the queue's check, and a queue whose check failed is dropped: the next use makes a fresh
 * one. While Redis is away, a queue made then waits for it like any command does.
 */
export class ProducerQueue<T = unknown> {
  private queue: Queue<T> | undefined;

  constructor(
    private readonly name: string,
    private readonly options: QueueOptions,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  /** The queue, once its connection check has passed; throws that check's error (and drops the queue). */
  async ready(): Promise<Queue<T>> {
    const queue = this.open();
    try {
      await queue.waitUntilReady();
      return queue;
    } catch (err) {
      if (this.queue === queue) this.queue = undefined;
      // With a shared connection this only takes the queue's listeners off it.
      await queue.close().catch(() => {});
      throw err;
    }
  }

  async close(): Promise<void> {
    const queue = this.queue;
    this.queue = undefined;
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
