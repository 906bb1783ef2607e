import { Webhook } from 'standardwebhooks';
import pino from 'pino';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseRetryAfter } from '../../core/retry-after.js';
import { nextRetryDelay, DEFAULT_RETRY_DELAYS_MS } from '../../api/outbox/retry-schedule.js';
import { SecretBox, secretBoxFor } from '../../api/secret-box.js';
import { generateWebhookSecret, signDelivery } from '../../api/outbox/signer.js';

describe('webhook signing', () => {
  test('secrets are whsec_ + base64 of 32 random bytes, never repeated', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  test('the signature verifies with standardwebhooks over the exact body, and not over another one', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({
      type: 'scan.created',
      timestamp: '2026-11-23T10:00:00.000Z',
      data: { ü: 'ß' },
    });
    const ts = Math.floor(Date.now() / 1000);
    const headers = signDelivery(secret, 'msg_abc', ts, body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body + ' ', { ...headers })).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow();
  });
});

describe('retry schedule', () => {
  test('about immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, then give up', () => {
    const mid = () => 0.5;
    const delays = DEFAULT_RETRY_DELAYS_MS.map((_, i) => nextRetryDelay(i, undefined, undefined, mid));
    expect(delays).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000]);
    expect(nextRetryDelay(8, undefined, undefined, mid)).toBeUndefined();
  });

  test('jitter stays within ±20 %', () => {
    expect(nextRetryDelay(2, undefined, undefined, () => 0)).toBe(240_000);
    expect(nextRetryDelay(2, undefined, undefined, () => 0.9999999)).toBeCloseTo(360_000, -1);
  });

  test('Retry-After is honoured when longer, capped at a day', () => {
    expect(nextRetryDelay(1, undefined, 60_000, () => 0.5)).toBe(60_000);
    expect(nextRetryDelay(1, undefined, 1_000, () => 0.5)).toBe(5_000);
    expect(nextRetryDelay(1, undefined, 10 * 86_400_000, () => 0.5)).toBe(86_400_000);
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(55_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});

describe('secret box', () => {
  const logger = pino({ level: 'silent' });

  test('round-trips, and a wrong key or a tampered value fails', () => {
    const box = new SecretBox(Buffer.alloc(32, 1));
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed); // fresh IV every time
    expect(() => new SecretBox(Buffer.alloc(32, 2)).open(sealed)).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('whsec_abd').toString('base64');
    expect(() => box.open(parts.join(':'))).toThrow();
  });

  test('without WEBHOOK_SECRET_KEY a key is generated into the data dir with mode 0600 and reused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'whk-key-'));
    const sealed = secretBoxFor({ dataDir: dir, multiInstance: false }, logger).seal('x');
    const file = path.join(dir, 'webhook-secret-key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
    expect(again.open(sealed)).toBe('x');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('WEBHOOK_SECRET_KEY gives every instance the same key', () => {
    const a = secretBoxFor(
      { secretKey: 'k'.repeat(40), dataDir: '/nonexistent-a', multiInstance: true },
      logger,
    );
    // What another process derives from the same variable: SHA-256 of it.
    const b = new SecretBox(createHash('sha256').update('k'.repeat(40)).digest());
    expect(b.open(a.seal('shared'))).toBe('shared');
    expect(fs.existsSync('/nonexistent-a')).toBe(false);
  });
});
