import { hash } from 'node:crypto';
import { normalizeSelector } from './selector-normalisation.js';

/**
 * Bumped whenever the fingerprint inputs or the normalisations change. Every scan stores the version
 * it was fingerprinted with; comparing scans of different versions is comparing different keys.
 */
// 2: single-page-app routes (`#/inbox`) lose tracking parameters, sort the rest and drop a trailing slash.
export const FINGERPRINT_VERSION = 2;

export interface FingerprintInput {
  rule: string;
  /** `pageKey()` of the page's normalised URL (path, query, SPA route). */
  pageKey: string;
  /** The raw selector (normalised here); null or empty for page-level results. */
  selector: string | null;
}

/**
 * `sha256(rule | page key | normalised selector)`, hex. Impact is deliberately not part of it: an
 * engine upgrade that re-rates an issue must not make it "new".
 */
export function issueFingerprint(input: FingerprintInput): string {
  const selector = input.selector ? normalizeSelector(input.selector) : '';
  // The one-shot hash: a Hash object per issue cost four times as much at 50,000 issues a scan.
  return hash('sha256', `${input.rule}|${input.pageKey}|${selector}`, 'hex');
}
