import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes as they are over a plain TCP connection and reads until the server closes or a complete
 * answer has arrived: no HTTP client in between to refuse, trim or fix the request first.
 */
export function rawRequest(port: number, request: Buffer | string, chunks: Array<Buffer | string> = []) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const received: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      const answer = parse(Buffer.concat(received).toString('utf8'));
      if (!answer) return;
      settled = true;
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (d) => {
      received.push(d);
      finish();
    });
    socket.on('close', () => {
      finish();
      if (!settled) reject(new Error(`connection closed without an answer: ${Buffer.concat(received)}`));
    });
    // The server may close while the client is still sending; what matters is the answer received.
    socket.on('error', () => {});
    socket.setTimeout(20_000, () => socket.destroy());
    socket.write(request);
    for (const chunk of chunks) socket.write(chunk);
  });
}

function parse(text: string): RawAnswer | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const body = text.slice(end + 4);
  const length = headers['content-length'];
  if (length !== undefined && Buffer.byteLength(body) < Number(length)) return undefined;
  if (length === undefined && headers['transfer-encoding'] === 'chunked' && !body.endsWith('0\r\n\r\n'))
    return undefined;
  return { status: Number(statusLine?.split(' ')[1]), headers, body };
}
