import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerBatch } from '../../src/http/answer-batch.js';
import type { FastLane } from '../../src/http/fast-lane.js';
import { answer } from '../../src/http/lane-steps.js';

/** A stand-in response that records what was done to it, in one log shared by all. */
function fakeResponse(name: string, log: string[], fails = false): ServerResponse {
  return {
    end(body?: Buffer) {
      if (fails) throw new Error('gone');
      log.push(`${name} ${body?.toString() ?? ''}`);
    },
    destroy() {
      log.push(`${name} destroyed`);
    },
  } as unknown as ServerResponse;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the answers of one turn of the event loop', () => {
  it('leave together once the turn is over, in the order they were given', async () => {
    const batch = new AnswerBatch();
    const log: string[] = [];
    batch.end(fakeResponse('a', log), Buffer.from('1'));
    batch.end(fakeResponse('b', log), undefined);
    batch.end(fakeResponse('c', log), Buffer.from('3'));
    expect(log).toEqual([]);
    expect(batch.waiting).toBe(3);
    await nextTurn();
    expect(log).toEqual(['a 1', 'b ', 'c 3']);
    expect(batch.waiting).toBe(0);
    // The next turn's answers are scheduled anew.
    batch.end(fakeResponse('d', log), Buffer.from('4'));
    await nextTurn();
    expect(log.at(-1)).toBe('d 4');
  });

  it('leave at once when a turn has as many as the batch holds', () => {
    const batch = new AnswerBatch(2);
    const log: string[] = [];
    batch.end(fakeResponse('a', log), Buffer.from('1'));
    expect(log).toEqual([]);
    batch.end(fakeResponse('b', log), Buffer.from('2'));
    expect(log).toEqual(['a 1', 'b 2']);
    expect(batch.waiting).toBe(0);
  });

  it('still go when one of them cannot be sent: that one connection is closed', async () => {
    const batch = new AnswerBatch();
    const log: string[] = [];
    batch.end(fakeResponse('a', log), Buffer.from('1'));
    batch.end(fakeResponse('b', log, true), Buffer.from('2'));
    batch.end(fakeResponse('c', log), Buffer.from('3'));
    await nextTurn();
    expect(log).toEqual(['a 1', 'b destroyed', 'c 3']);
  });
});

describe("a lane's answer", () => {
  it('has its status and headers written at once, and its body sent when the turn is over', async () => {
    const log: string[] = [];
    const res = {
      writeHead(status: number) {
        log.push(`head ${status}`);
      },
      end(body?: Buffer) {
        log.push(`end ${body?.toString()}`);
      },
    } as unknown as ServerResponse;
    const lane = { served: 0 } as FastLane;
    answer(lane, res, 200, { 'content-length': 2 }, Buffer.from('ok'));
    expect(log).toEqual(['head 200']);
    expect(lane.served).toBe(1);
    await nextTurn();
    expect(log).toEqual(['head 200', 'end ok']);
  });
});

describe("a lane's answers on a real server", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('reach each its own client, with their headers, when many are served in one turn', async () => {
    const lane = { served: 0 } as FastLane;
    const server = createServer((req, res) => {
      const body = Buffer.from(`answer to ${req.url}`);
      answer(lane, res, 200, { 'content-type': 'text/plain', 'content-length': body.length }, body);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const get = (path: string) =>
      new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              type: res.headers['content-type'] ?? '',
              body: Buffer.concat(chunks).toString(),
            }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    const paths = Array.from({ length: 40 }, (_, i) => `/${i}`);
    const answers = await Promise.all(paths.map(get));
    expect(answers).toEqual(paths.map((p) => ({ status: 200, type: 'text/plain', body: `answer to ${p}` })));
    expect(lane.served).toBe(40);
  });
});
