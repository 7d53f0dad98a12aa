export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliverySummary {
  id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  response_status: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
  last_error: string | null;
}

export interface AttemptRow {
  attempt: number;
  started_at: Date;
  duration_ms: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}

/** What an attempt needs, read in one query right before it: a deleted webhook yields nothing. */
export interface DeliveryForAttempt {
  id: string;
  webhook_id: string;
  workspace_id: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  url: string;
  secret_ciphertext: string;
  is_active: boolean;
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/** A pending delivery whose attempt is overdue: its job was lost. */
export interface OverdueDelivery {
  id: string;
  webhook_id: string;
  workspace_id: string;
  attempts: number;
}

export type DeliveryDetail = DeliverySummary & { body: string; attempt_log: AttemptRow[] };

/** Deliveries of webhook events and the log of their attempts. */
export interface DeliveriesStore {
  /** Newest first. */
  list(webhookId: string, limit: number, offset: number): Promise<DeliverySummary[]>;
  get(webhookId: string, deliveryId: string): Promise<DeliveryDetail | undefined>;
  /** A delivery outside the outbox (the `ping` of the test operation); answers its id. */
  insertDirect(webhookId: string, workspaceId: string, event: string, body: string): Promise<string>;
  /**
   * Puts a finished delivery back to pending for a new round of attempts. Returns the attempts made so far,
   * 'pending' when it is still in progress, or undefined when there is no such delivery.
   */
  reopen(webhookId: string, deliveryId: string): Promise<number | 'pending' | undefined>;
  /** What the attempts need, for many deliveries at once; in the order asked (undefined when gone). */
  forAttempts(deliveryIds: string[]): Promise<Array<DeliveryForAttempt | undefined>>;
  /**
   * Logs each attempt and moves its delivery on. Answers, in order, whether each was recorded: false when
   * the delivery vanished meanwhile (its webhook was deleted).
   */
  recordMany(records: AttemptRecord[]): Promise<boolean[]>;
  /** Ends a delivery whose webhook is no longer active, without a request. */
  abandon(deliveryId: string): Promise<void>;
  /** Pending deliveries whose attempt is overdue by more than graceMs, most overdue first. */
  overdue(graceMs: number, limit: number): Promise<OverdueDelivery[]>;
  /**
   * Retention: removes finished deliveries (with their attempts) last changed more than `days` ago, then
   * dispatched outbox rows that old which no delivery refers to. At most `limit` rows of each per call.
   */
  prune(days: number, limit: number): Promise<{ deliveries: number; outbox: number }>;
}
