import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectRedisDurability } from '../../../src/platform/redis-durability.js';
import { createTestContext, type TestContext } from '../../helpers/context.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ withoutApp: true });
});
afterAll(async () => {
  await ctx?.close();
});

describe('the Redis the project starts', () => {
  it('syncs its append-only file before it answers, so the API and workers start without a warning', async () => {
    expect(await inspectRedisDurability(ctx.deps.redis)).toEqual({
      appendonly: 'yes',
      appendfsync: 'always',
      durable: true,
    });
  });
});
