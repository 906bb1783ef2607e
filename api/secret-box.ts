import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { ApiContext } from './context.js';

/**
 * Encrypts subscription secrets at rest with AES-256-GCM. The key comes from WEBHOOK_SECRET_KEY
 * (hashed to 32 bytes) or, when that is unset, from `<dataDir>/webhook-secret-key`, generated with
 * mode 0600 on first start. Several instances on one PostgreSQL database must share the key, so
 * WEBHOOK_SECRET_KEY is required there (each instance would otherwise generate its own).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {}

  /** A key for another purpose, derived from this one: knowing it reveals nothing of the box's key. */
  derivedKey(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(purpose).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      data.toString('base64'),
    ].join(':');
  }

  /** Throws when the value was sealed with another key or was tampered with. */
  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || data === undefined)
      throw new Error('unknown sealed secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}

const boxes = new Map<string, SecretBox>();

export function secretBoxFor(
  settings: { secretKey?: string; dataDir: string; multiInstance: boolean },
  logger: Logger,
): SecretBox {
  const cacheKey = settings.secretKey
    ? `env:${settings.secretKey}`
    : `file:${path.resolve(settings.dataDir)}`;
  let box = boxes.get(cacheKey);
  if (!box) {
    box = new SecretBox(resolveKey(settings, logger));
    boxes.set(cacheKey, box);
  }
  return box;
}

function resolveKey(
  settings: { secretKey?: string; dataDir: string; multiInstance: boolean },
  logger: Logger,
) {
  if (settings.secretKey) return createHash('sha256').update(settings.secretKey, 'utf8').digest();
  const file = path.resolve(settings.dataDir, 'webhook-secret-key');
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length === 32) return key;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  logger.warn(
    { file },
    settings.multiInstance
      ? 'WEBHOOK_SECRET_KEY is not set: generated a webhook secret key in this file; set WEBHOOK_SECRET_KEY to the same value on every instance sharing this PostgreSQL database'
      : 'WEBHOOK_SECRET_KEY is not set: generated a webhook secret key and stored it in this file (mode 0600)',
  );
  return key;
}

/** The subscription-secret box of this service (the webhook routes, the idempotency replay store and the worker share it). */
export function webhookSecretBox(ctx: ApiContext): SecretBox {
  return secretBoxFor(
    {
      secretKey: ctx.config.webhooks.secretKey,
      dataDir: ctx.config.dataDir,
      multiInstance: ctx.dialect === 'postgres',
    },
    ctx.logger,
  );
}
