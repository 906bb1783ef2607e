import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  type: string;
  /** `data.id` of the payload (the scan, deploy, … the event is about). */
  dataId?: string;
  verified: boolean;
  /** The receiver answered 2xx on a live connection (the sender could record the success). */
  answered: boolean;
  at: number;
}

/**
 * A webhook endpoint on loopback that verifies every delivery with the Standard Webhooks reference
 * library and answers slowly (so deliveries are in flight when the sender is killed).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Deliveries answered so far (received minus answered = in flight at the sender). */
  answered = 0;
  secret?: string;
  private server?: Server;
  url = '';

  constructor(private readonly delayMs = 0) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = {
          'webhook-id': String(req.headers['webhook-id'] ?? ''),
          'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
        };
        let type = '';
        let dataId: string | undefined;
        let verified: boolean;
        try {
          const payload = new Webhook(this.secret ?? '').verify(body, headers) as {
            type?: string;
            data?: { id?: string };
          };
          type = String(payload.type);
          dataId = payload.data?.id;
          verified = true;
        } catch {
          verified = false;
        }
        const entry: Received = {
          id: headers['webhook-id'],
          type,
          dataId,
          verified,
          answered: false,
          at: Date.now(),
        };
        this.received.push(entry);
        setTimeout(() => {
          if (!res.socket || res.socket.destroyed) return;
          res.statusCode = 204;
          res.end();
          entry.answered = true;
          this.answered += 1;
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Distinct event ids that arrived with a valid signature. */
  verifiedIds(type?: string): Set<string> {
    return new Set(this.received.filter((r) => r.verified && (!type || r.type === type)).map((r) => r.id));
  }

  /**
   * `data.id` of every event that arrived with a valid signature; with `answeredOnly`, only those
   * whose 2xx answer reached a live sender (a receiver cut off mid-request may not have processed it).
   */
  verifiedDataIds(answeredOnly = false): Set<string> {
    return new Set(
      this.received
        .filter((r) => r.verified && r.dataId !== undefined && (!answeredOnly || r.answered))
        .map((r) => r.dataId as string),
    );
  }

  duplicates(): number {
    const ids = this.received.filter((r) => r.verified).map((r) => r.id);
    return ids.length - new Set(ids).size;
  }

  async waitFor(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (predicate()) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return predicate();
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
