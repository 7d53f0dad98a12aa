import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { LazyRequestLogger } from '../../../src/http/lazy-request-logger.js';
import { capturedLog } from '../../helpers/captured-log.js';

describe('the request logger made on first use', () => {
  it('makes no child logger for a request that logs nothing, and one carrying the request id when it logs', async () => {
    const { lines, log: logger } = capturedLog();
    const app = Fastify({
      loggerInstance: logger,
      disableRequestLogging: true,
      genReqId: () => 'req-1',
      childLoggerFactory: (parent, bindings, options) => new LazyRequestLogger(parent, bindings, options),
    });
    // The server's own logger, which request loggers are children of.
    const child = vi.spyOn(app.log, 'child');
    app.get('/quiet', async () => ({ ok: true }));
    app.get('/loud', async (request) => {
      request.log.warn({ what: 'x' }, 'something to say');
      return { ok: true };
    });
    expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect((await app.inject('/loud')).statusCode).toBe(200);
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.at(-1)).toMatchObject({ reqId: 'req-1', what: 'x', msg: 'something to say', level: 40 });
    await app.close();
  });

  it('answers the level of its parent until made, and keeps a level set on it', () => {
    const { log: logger } = capturedLog();
    const lazy = new LazyRequestLogger(logger, { reqId: 'r' }, {});
    expect(lazy.level).toBe('info');
    lazy.level = 'error';
    expect(lazy.level).toBe('error');
    expect(logger.level).toBe('info');
  });
});
