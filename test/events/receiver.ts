import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
  headers: http.IncomingHttpHeaders;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Deliveries that verified, by webhook-id. */
  verifiedIds(): string[];
  /** What to answer the n-th request (0-based); default 204. */
  respond: (n: number, req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** Sets the secret(s) used to verify, keyed by path (one receiver can host several subscriptions). */
  secrets: Map<string, string>;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 that verifies every delivery with the standardwebhooks package. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let n = 0;
  const receiver: Receiver = {
    url: '',
    received,
    secrets: new Map(),
    respond: (_n, _req, res) => {
      res.statusCode = 204;
      res.end();
    },
    verifiedIds: () => received.filter((r) => r.verified).map((r) => r.id),
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} deliveries`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = receiver.secrets.get(req.url ?? '/') ?? receiver.secrets.get('*');
      let verified = false;
      try {
        if (secret) {
          new Webhook(secret).verify(body, {
            'webhook-id': String(req.headers['webhook-id']),
            'webhook-timestamp': String(req.headers['webhook-timestamp']),
            'webhook-signature': String(req.headers['webhook-signature']),
          });
          verified = true;
        }
      } catch {
        verified = false;
      }
      received.push({
        id: String(req.headers['webhook-id']),
        body,
        payload: JSON.parse(body),
        verified,
        headers: req.headers,
      });
      receiver.respond(n++, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
