import { describe, expect, it } from 'vitest';
import { deliveryRow } from '../../../cli/commands/webhooks.js';
import type { Delivery } from '../../../client/types.js';

const delivery = (over: Partial<Delivery>): Delivery =>
  ({
    id: 'd1',
    webhook_id: 'w1',
    event: 'rollback',
    status: 'failed',
    attempts: 5,
    last_error: null,
    next_attempt_at: null,
    response_status: null,
    created_at: '2026-11-28T10:00:00.000Z',
    ...over,
  }) as Delivery;

describe('ota webhooks deliveries', () => {
  it('says why a delivery failed without an HTTP answer, not only that it failed', () => {
    const row = deliveryRow(delivery({ last_error: 'signing secret cannot be decrypted' }));
    expect(row).toContain('signing secret cannot be decrypted');
    expect(deliveryRow(delivery({ response_status: 500, last_error: 'HTTP 500' }))).toContain('HTTP 500');
    expect(deliveryRow(delivery({ status: 'succeeded', response_status: 204 }))).toContain('HTTP 204');
    const long = deliveryRow(delivery({ last_error: 'x'.repeat(200) }))[4] as string;
    expect(long).toHaveLength(60);
    expect(deliveryRow(delivery({ status: 'pending' }))[4]).toBe('-');
  });
});
