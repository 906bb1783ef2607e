import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { nowIso } from '../domain/ids.js';
import type { SecretBox } from '../secret-box.js';
import type { ClaimedWebhookDelivery } from '../store/webhooks/delivery-queue.js';
import { parseRetryAfter } from '../../core/retry-after.js';
import { signDelivery } from './signer.js';
import { checkTargetUrl, guardedLookup, type Resolver } from './ssrf-guard.js';

/** What one HTTP attempt came to. */
export interface SendOutcome {
  status: number | null;
  excerpt: string | null;
  error: string | null;
  retryAfterMs?: number;
  durationMs: number;
}

/** What a sender needs besides the delivery: limits, the SSRF guard's resolver, pooled agents. */
export interface SendSettings {
  allowPrivate: boolean;
  timeoutMs: number;
  responseReadBytes: number;
  excerptChars: number;
  resolver: Resolver;
  box: SecretBox;
  agents: { http: http.Agent; https: https.Agent };
  /** Requests under way, so a stop can abort them. */
  inFlight: Set<http.ClientRequest>;
}

/**
 * The secrets that sign a delivery: the subscription's, and during a rotation's overlap the previous one
 * too, so receivers can switch at any time. Undefined when a secret cannot be decrypted.
 */
function signingSecrets(d: ClaimedWebhookDelivery, box: SecretBox): string[] | undefined {
  try {
    const secrets = [box.open(d.secretSealed)];
    if (d.previousSecretSealed && d.previousSecretExpiresAt && d.previousSecretExpiresAt > nowIso()) {
      secrets.push(box.open(d.previousSecretSealed));
    }
    return secrets;
  } catch {
    return undefined;
  }
}

/**
 * Sends one delivery: Standard Webhooks signature over the exact bytes sent, no redirects, a timeout,
 * a capped read of the answer.
 */
export async function sendDelivery(d: ClaimedWebhookDelivery, o: SendSettings): Promise<SendOutcome> {
  const started = Date.now();
  const fail = (error: string): SendOutcome => ({
    status: null,
    excerpt: null,
    error,
    durationMs: Date.now() - started,
  });
  // Literal addresses never reach the resolver, so they are checked here; names are checked at connect time.
  const refused = checkTargetUrl(d.url, o.allowPrivate);
  if (refused) return fail(`refused: the URL ${refused}`);
  const secrets = signingSecrets(d, o.box);
  if (!secrets) {
    return fail('cannot decrypt the subscription secret (is WEBHOOK_SECRET_KEY the same on every instance?)');
  }
  const body = d.payload;
  const headers = {
    ...signDelivery(secrets, d.messageId, Math.floor(Date.now() / 1000), body),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'a11y-gate-webhooks',
  };
  const outcome = await post(new URL(d.url), headers, body, o);
  return { ...outcome, durationMs: Date.now() - started };
}

type Answer = Omit<SendOutcome, 'durationMs'>;

function post(url: URL, headers: Record<string, string>, body: string, o: SendSettings): Promise<Answer> {
  const secure = url.protocol === 'https:';
  return new Promise<Answer>((resolve) => {
    let settled = false;
    const finish = (a: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.inFlight.delete(req);
      resolve(a);
    };
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      headers,
      agent: secure ? o.agents.https : o.agents.http,
      lookup: o.allowPrivate ? undefined : guardedLookup(o.resolver),
    });
    o.inFlight.add(req);
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${o.timeoutMs / 1000} s`));
    }, o.timeoutMs);
    req.on('error', (err) => finish({ status: null, excerpt: null, error: err.message }));
    req.on('response', (res) => readAnswer(res, o, finish));
    req.end(body);
  });
}

/** Reads at most `responseReadBytes` of the answer and keeps an excerpt of it. */
function readAnswer(res: IncomingMessage, o: SendSettings, finish: (a: Answer) => void): void {
  const chunks: Buffer[] = [];
  let read = 0;
  const status = res.statusCode ?? 0;
  const retryAfterMs =
    status === 429 || status === 503 ? (parseRetryAfter(res.headers['retry-after']) ?? undefined) : undefined;
  const done = () => {
    const text = excerptOf(Buffer.concat(chunks), o.excerptChars);
    const redirect = status >= 300 && status < 400 ? 'redirects are not followed' : null;
    finish({
      status,
      excerpt: text || null,
      error: redirect ?? (status >= 200 && status < 300 ? null : `HTTP ${status}`),
      retryAfterMs,
    });
  };
  res.on('data', (chunk: Buffer) => {
    if (read < o.responseReadBytes) chunks.push(chunk.subarray(0, o.responseReadBytes - read));
    read += chunk.length;
    // Stop reading a long answer: only the excerpt is kept.
    if (read >= o.responseReadBytes) {
      done();
      res.destroy();
    }
  });
  res.on('end', done);
  res.on('close', done);
  res.on('error', done);
}

/**
 * The stored excerpt of an answer: text, cut to `chars`. A receiver may answer with binary; PostgreSQL
 * refuses NUL in a text column, and a refused attempt row would leave the delivery leased and re-sent
 * for ever without an attempt on record, so NUL becomes U+FFFD (as invalid UTF-8 already does).
 */
export function excerptOf(body: Buffer, chars: number): string {
  return body.toString('utf8').replace(/\0/g, '\uFFFD').slice(0, chars);
}
