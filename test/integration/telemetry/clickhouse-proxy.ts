import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the shared ClickHouse, so a test can make "ClickHouse" refuse
 * connections (stop), come back on the same port (start), or swallow the answer to an insert that
 * ClickHouse did perform (holdInserts): the client never learns that its rows were stored.
 */
export class ClickHouseProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  /** When set, the answer to each INSERT is withheld and this is called once ClickHouse has answered. */
  holdInserts: ((status: number) => void) | undefined;
  inserts = 0;

  constructor(private readonly target: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const isInsert = /INSERT/i.test(decodeURIComponent(req.url ?? ''));
      const upstream = httpRequest(
        new URL(req.url ?? '/', this.target),
        { method: req.method, headers: { ...req.headers, host: new URL(this.target).host } },
        (up) => {
          const chunks: Buffer[] = [];
          up.on('data', (c: Buffer) => chunks.push(c));
          up.on('end', () => {
            if (isInsert) this.inserts += 1;
            if (isInsert && this.holdInserts) {
              this.holdInserts(up.statusCode ?? 0);
              return; // never answer: the client is left waiting
            }
            res.writeHead(up.statusCode ?? 502, up.headers);
            res.end(Buffer.concat(chunks));
          });
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port and every open connection: connections are refused until start() again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
