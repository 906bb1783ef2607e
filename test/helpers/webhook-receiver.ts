// The one webhook receiver of the test suites: a real HTTP server on loopback that verifies every delivery
// with the Standard Webhooks reference library. Unit suites script its answers; reliability suites make it
// answer slowly so deliveries are in flight when a sender is killed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { sleep } from './wait.js';

export interface Received {
  /** The webhook-id header (one per message; a redelivery repeats it). */
  id: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
  /** `data.id` of a verified payload (the scan, deploy, … the event is about). */
  dataId?: string;
  headers: http.IncomingHttpHeaders;
  /** The receiver answered 2xx on a live connection (the sender could record the success). */
  answered: boolean;
  at: number;
}

export interface ReceiverOptions {
  /** How long the default answer (204) waits, so deliveries stay in flight at the sender. */
  delayMs?: number;
}

export interface Receiver {
  /** Base URL, without a path: subscriptions add one (`url + '/hook'`). */
  url: string;
  received: Received[];
  /** Deliveries answered 2xx so far (received minus answered = in flight at the sender). */
  answered: number;
  /** What to answer the n-th request (0-based); default 204 after `delayMs`. */
  respond: (n: number, req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** The secret(s) used to verify, keyed by request path ('*' for any path without its own). */
  secrets: Map<string, string>;
  /** Distinct webhook-ids that arrived with a valid signature (of one event type when given). */
  verifiedIds(type?: string): Set<string>;
  /**
   * `data.id` of every event that arrived with a valid signature; with `answeredOnly`, only those
   * whose 2xx answer reached a live sender (a receiver cut off mid-request may not have processed it).
   */
  verifiedDataIds(answeredOnly?: boolean): Set<string>;
  /** Verified deliveries beyond the first of each webhook-id. */
  duplicates(): number;
  /** Resolves once `count` deliveries arrived; throws after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Polls `predicate` until it holds or `timeoutMs` passes; resolves to its last value. */
  waitUntil(predicate: () => boolean, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

function verify(secret: string | undefined, body: string, headers: http.IncomingHttpHeaders): boolean {
  if (!secret) return false;
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(headers['webhook-signature'] ?? ''),
    });
    return true;
  } catch {
    return false;
  }
}

function parse(body: string): Received['payload'] {
  try {
    return JSON.parse(body) as Received['payload'];
  } catch {
    return { type: '', timestamp: '', data: {} };
  }
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const delayMs = options.delayMs ?? 0;
  const received: Received[] = [];
  let n = 0;
  const verifiedOnes = () => received.filter((r) => r.verified);
  const receiver: Receiver = {
    url: '',
    received,
    answered: 0,
    secrets: new Map(),
    respond: (_n, _req, res) => {
      setTimeout(() => {
        if (!res.socket || res.socket.destroyed) return;
        res.statusCode = 204;
        res.end();
      }, delayMs);
    },
    verifiedIds: (type) =>
      new Set(
        verifiedOnes()
          .filter((r) => !type || r.payload.type === type)
          .map((r) => r.id),
      ),
    verifiedDataIds: (answeredOnly = false) =>
      new Set(
        verifiedOnes()
          .filter((r) => r.dataId !== undefined && (!answeredOnly || r.answered))
          .map((r) => r.dataId as string),
      ),
    duplicates: () => verifiedOnes().length - receiver.verifiedIds().size,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} deliveries`);
        await sleep(20);
      }
    },
    async waitUntil(predicate, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (predicate()) return true;
        await sleep(100);
      }
      return predicate();
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
      const payload = parse(body);
      const verified = verify(secret, body, req.headers);
      const dataId = payload.data?.id;
      const entry: Received = {
        id: String(req.headers['webhook-id']),
        body,
        payload,
        verified,
        dataId: verified && typeof dataId === 'string' ? dataId : undefined,
        headers: req.headers,
        answered: false,
        at: Date.now(),
      };
      received.push(entry);
      // Counted when the answer was handed to a live connection, whoever wrote it.
      res.on('finish', () => {
        if (res.statusCode < 200 || res.statusCode >= 300) return;
        entry.answered = true;
        receiver.answered += 1;
      });
      receiver.respond(n++, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
