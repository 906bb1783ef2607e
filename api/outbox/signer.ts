import { createHmac, randomBytes } from 'node:crypto';

/** Subscription secrets in the Standard Webhooks format: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body`, keyed with the
 * base64-decoded part of the secret after `whsec_`. `body` must be the exact bytes that are sent.
 * With several secrets (during a rotation's overlap) the header carries one signature per secret,
 * space-separated, as the spec allows: a receiver holding either secret accepts the delivery.
 */
export function signDelivery(
  secrets: string | string[],
  id: string,
  timestampSeconds: number,
  body: string,
): SignedHeaders {
  const signatures = (Array.isArray(secrets) ? secrets : [secrets]).map((secret) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    return 'v1,' + createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  });
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatures.join(' '),
  };
}
