import { hash } from 'node:crypto';
import { normalizeSelector } from './selector-normalisation.js';

/**
 * Bumped whenever the fingerprint inputs or the normalisations change the keys of pages at large. Every
 * scan stores the version it was fingerprinted with; comparing scans of different versions is comparing
 * different keys, so the gate then matches every issue by similarity alone.
 */
// 2: single-page-app routes (`#/inbox`) lose tracking parameters, sort the rest and drop a trailing slash.
// Still 2 with the index-file rule (`/docs/index.html` is `/docs`): it re-keys only pages addressed by an
// index file, whose issues the gate pairs by similarity on their page (keys are read by the current rule),
// while a new version would have sent every issue of every site to similarity alone once.
export const FINGERPRINT_VERSION = 2;

export interface FingerprintInput {
  rule: string;
  /** `pageKey()` of the page's normalised URL (path, query, SPA route). */
  pageKey: string;
  /** The raw selector (normalised here); null or empty for page-level results. */
  selector: string | null;
  /** The viewport the page was scanned at, when one was named (`390x844`, `iPhone 13`); else absent. */
  viewport?: string | null;
}

/**
 * A page's identity for fingerprints and matching: its page key, and the viewport it was scanned at when
 * one was named. Without a viewport it is the page key itself, so every fingerprint made before viewports
 * existed stays as it was; with one, the same element at another width is another issue. A normalised
 * URL holds no space, so `/cart @390x844` can never be the key of a page without a viewport.
 */
export function viewportPageKey(pageKey: string, viewport: string | null | undefined): string {
  return viewport ? `${pageKey} @${viewport}` : pageKey;
}

/**
 * `sha256(rule | page key [@viewport] | normalised selector)`, hex. Impact is deliberately not part of
 * it: an engine upgrade that re-rates an issue must not make it "new".
 */
export function issueFingerprint(input: FingerprintInput): string {
  const selector = input.selector ? normalizeSelector(input.selector) : '';
  const page = viewportPageKey(input.pageKey, input.viewport);
  // The one-shot hash: a Hash object per issue cost four times as much at 50,000 issues a scan.
  return hash('sha256', `${input.rule}|${page}|${selector}`, 'hex');
}
