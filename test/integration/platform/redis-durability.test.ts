import { describe, expect, it } from 'vitest';
import { inspectRedisDurability } from '../../../src/platform/redis-durability.js';
import { fileContext } from '../../helpers/context.js';

const ctx = fileContext({ withoutApp: true });

describe('the Redis the project starts', () => {
  it('syncs its append-only file before it answers, so the API and workers start without a warning', async () => {
    expect(await inspectRedisDurability(ctx.deps.redis)).toEqual({
      appendonly: 'yes',
      appendfsync: 'always',
      durable: true,
    });
  });
});
