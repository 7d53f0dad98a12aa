import { describe, expect, it } from 'vitest';
import {
  type ConfigReader,
  inspectRedisDurability,
  warnIfNotDurable,
} from '../../../src/platform/redis-durability.js';
import { capturedLog } from '../../helpers/captured-log.js';

/** A Redis stand-in answering CONFIG GET from `settings`, or refusing CONFIG altogether. */
function redisWith(settings: Record<string, string> | 'refused'): ConfigReader {
  return {
    config: async (_get, name) => {
      if (settings === 'refused') throw new Error("ERR unknown command 'CONFIG'");
      return [name, settings[name] ?? ''];
    },
  };
}

describe('Redis durability at start', () => {
  it('is durable only with the AOF on and synced before each answer', async () => {
    expect(await inspectRedisDurability(redisWith({ appendonly: 'yes', appendfsync: 'always' }))).toEqual({
      appendonly: 'yes',
      appendfsync: 'always',
      durable: true,
    });
    for (const settings of [
      { appendonly: 'yes', appendfsync: 'everysec' },
      { appendonly: 'no', appendfsync: 'always' },
    ]) {
      expect((await inspectRedisDurability(redisWith(settings))).durable).toBe(false);
    }
  });

  it('warns, naming both settings, when a killed Redis could lose accepted events', async () => {
    const { lines, log } = capturedLog();
    await warnIfNotDurable(redisWith({ appendonly: 'yes', appendfsync: 'everysec' }), log);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      redis_durability: { appendonly: 'yes', appendfsync: 'everysec', durable: false },
    });
    expect(String(lines[0]!.msg)).toContain('appendfsync always');
  });

  it('says nothing for a durable Redis, nor for one that refuses CONFIG', async () => {
    const { lines, log } = capturedLog();
    await warnIfNotDurable(redisWith({ appendonly: 'yes', appendfsync: 'always' }), log);
    await warnIfNotDurable(redisWith('refused'), log);
    expect(lines).toEqual([]);
  });
});
