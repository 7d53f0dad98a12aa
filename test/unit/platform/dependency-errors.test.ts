import { describe, expect, it } from 'vitest';
import { isDependencyUnavailable } from '../../../src/platform/dependency-errors.js';

const withProps = (message: string, props: Record<string, unknown>) =>
  Object.assign(new Error(message), props);

describe('dependency errors', () => {
  it('recognises a backing service that is away', () => {
    const away = [
      withProps('Reached the max retries per request limit (which is 2).', {
        name: 'MaxRetriesPerRequestError',
      }),
      withProps('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' }),
      withProps('terminating connection due to administrator command', { code: '57P01' }),
      withProps('the database system is starting up', { code: '57P03' }),
      withProps('sorry, too many clients already', { code: '53300' }),
      withProps('server closed the connection unexpectedly', { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection is closed.'),
      new TypeError('fetch failed', { cause: withProps('other side closed', { code: 'UND_ERR_SOCKET' }) }),
      new AggregateError([withProps('connect ECONNREFUSED ::1:8123', { code: 'ECONNREFUSED' })], ''),
    ];
    for (const err of away) expect(isDependencyUnavailable(err), String(err)).toBe(true);
  });

  it('recognises a Redis Cluster or a Redis taking over from a failed node', () => {
    const away = [
      new Error('CLUSTERDOWN The cluster is down'),
      new Error('TRYAGAIN Multiple keys request during rehashing of slot'),
      new Error('None of startup nodes is available'),
      new Error('Failed to refresh slots cache.'),
      new Error('Too many Cluster redirections. Last error: Error: CLUSTERDOWN Hash slot not served'),
      new Error('LOADING Redis is loading the dataset in memory'),
      new Error("READONLY You can't write against a read only replica."),
      new Error('MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no'),
    ];
    for (const err of away) expect(isDependencyUnavailable(err), String(err)).toBe(true);
  });

  it('leaves bugs and refusals of data as they are', () => {
    const bugs = [
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      withProps('duplicate key value violates unique constraint', { code: '23505' }),
      withProps('syntax error at or near "SELEC"', { code: '42601' }),
      new Error('Code: 62. DB::Exception: Syntax error'),
      undefined,
      'ECONNREFUSED as a bare string is not an error object',
    ];
    for (const err of bugs) expect(isDependencyUnavailable(err), String(err)).toBe(false);
  });

  it('stops following causes that loop', () => {
    const a = new Error('outer') as Error & { cause?: unknown };
    a.cause = a;
    expect(isDependencyUnavailable(a)).toBe(false);
  });
});
