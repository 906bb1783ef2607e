import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../ids.js';

/**
 * API key format: `a11y_<public id>_<secret><checksum>`. The public id finds the row; the secret is
 * only ever stored as a SHA-256 hash; the checksum (CRC32 in base62, like GitHub's tokens) lets us
 * reject typos and random strings without touching the database, and lets secret scanners spot keys.
 */
export const KEY_PREFIX = 'a11y_';
const PUBLIC_ID_LENGTH = 12;
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(
  `^${KEY_PREFIX}([0-9A-Za-z]{${PUBLIC_ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);

export const SCOPES = ['ingest', 'gate', 'read', 'manage', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** A new key's scopes when none are named: everything but `admin`, which is only ever given on purpose. */
export const DEFAULT_SCOPES: Scope[] = ['ingest', 'gate', 'read', 'manage'];

export interface GeneratedKey {
  key: string;
  publicId: string;
  /** `a11y_<public id>`: safe to show and log, identifies the key. */
  prefix: string;
  secretHash: string;
}

export function generateApiKey(): GeneratedKey {
  const publicId = randomBase62(PUBLIC_ID_LENGTH);
  const secret = randomBase62(SECRET_LENGTH);
  const body = `${KEY_PREFIX}${publicId}_${secret}`;
  const key = body + checksum(body);
  return { key, publicId, prefix: `${KEY_PREFIX}${publicId}`, secretHash: hashSecret(key) };
}

export interface ParsedKey {
  publicId: string;
  key: string;
}

/** Returns null for anything that is not a well-formed key with a valid checksum. */
export function parseApiKey(candidate: string): ParsedKey | null {
  const m = KEY_PATTERN.exec(candidate);
  if (!m) return null;
  const body = `${KEY_PREFIX}${m[1]}_${m[2]}`;
  if (checksum(body) !== m[3]) return null;
  return { publicId: m[1], key: candidate };
}

/**
 * The public id a presented credential claims, checksum or not: failed attempts are counted per key id
 * too, so guesses at one key spread over many addresses are limited as well.
 */
export function claimedPublicId(candidate: string): string | undefined {
  return KEY_PATTERN.exec(candidate)?.[1];
}

/** A key authenticates only while it is neither revoked nor past its expiry (`now`: ISO 8601 UTC). */
export function keyIsUsable(k: { revokedAt: string | null; expiresAt: string | null }, now: string): boolean {
  return !k.revokedAt && !(k.expiresAt && k.expiresAt <= now);
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests (or any two strings, hashed first). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function checksum(body: string): string {
  let n = crc32(Buffer.from(body, 'utf8'));
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

function crc32(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
