import { connect, type Socket } from 'node:net';
import { waitFor } from '@pp/testing';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One keep-alive HTTP/1.1 connection, written and read byte for byte: shows
 * every answer the server writes on it, a second answer to one request
 * included, which fetch would hide or fail on.
 */
export class RawHttpConnection {
  private received = Buffer.alloc(0);
  private ended = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => (this.received = Buffer.concat([this.received, chunk])));
    socket.on('close', () => (this.ended = true));
  }

  static open(baseUrl: string): Promise<RawHttpConnection> {
    const { hostname, port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawHttpConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends a request without a body. */
  send(method: string, path: string, headers: Record<string, string>): void {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    this.socket.write(`${method} ${path} HTTP/1.1\r\nHost: gateway\r\n${lines.join('')}\r\n`);
  }

  /** The complete answers received so far, in order. */
  answers(): RawAnswer[] {
    const answers: RawAnswer[] = [];
    let at = 0;
    for (;;) {
      const headEnd = this.received.indexOf('\r\n\r\n', at);
      if (headEnd < 0) return answers;
      const [statusLine, ...headerLines] = this.received.subarray(at, headEnd).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const bodyEnd = headEnd + 4 + Number(headers['content-length'] ?? 0);
      if (this.received.length < bodyEnd) return answers;
      answers.push({ status: Number(statusLine!.split(' ')[1]), headers, body: this.received.subarray(headEnd + 4, bodyEnd).toString('utf8') });
      at = bodyEnd;
    }
  }

  /** Every status line received, complete answers or not (one right after a body follows it on the same line): one per answer written. */
  statusLines(): number {
    return this.received.toString('latin1').match(/HTTP\/1\.[01] \d{3} /g)?.length ?? 0;
  }

  /** Waits for the `index`-th answer (from 0). */
  answer(index: number, timeoutMs = 30_000): Promise<RawAnswer> {
    return waitFor(`answer ${index} on the connection`, () => this.answers()[index], { timeoutMs, intervalMs: 20 });
  }

  get closed(): boolean {
    return this.ended;
  }

  close(): void {
    this.socket.destroy();
  }
}
