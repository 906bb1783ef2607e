import { urlMatcher } from './glob.js';
import { normalizeSelector } from './selector-normalisation.js';

/** A waiver as the gate sees it (DESIGN §Waivers). Every criterion that is set must match. */
export interface WaiverRule {
  id: string;
  rule: string;
  selector: string | null;
  url_pattern: string | null;
  fingerprint: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** The parts of an issue a waiver can match on. */
export interface WaivableIssue {
  rule: string;
  selector: string | null;
  fingerprint: string;
  /** Every URL the issue's page is known by (as submitted and normalised); a glob may match either. */
  pageUrls: readonly string[];
}

export type WaiverState = 'active' | 'expired' | 'revoked';

/** Revoked wins over expired: a revoked waiver stays revoked whatever its expiry. */
export function waiverState(w: Pick<WaiverRule, 'expires_at' | 'revoked_at'>, now: string): WaiverState {
  if (w.revoked_at) return 'revoked';
  // RFC 3339 UTC strings with milliseconds compare correctly as text; parse to be safe with offsets.
  if (w.expires_at && Date.parse(w.expires_at) <= Date.parse(now)) return 'expired';
  return 'active';
}

/**
 * Selectors compare the way fingerprints do (store/scans keeps them as submitted): whitespace around
 * combinators is ignored and generated class names (`css-1x2y3z`, `sc-AbCdE`, …) match any build's.
 */
export function normaliseWaiverSelector(selector: string): string {
  return normalizeSelector(selector.trim().replace(/\s+/g, ' '));
}

interface CompiledWaiver {
  id: string;
  selector: string | null;
  fingerprint: string | null;
  url: ((url: string) => boolean) | null;
}

export interface WaiverMatcher {
  /** How many active waivers take part. */
  readonly size: number;
  /** The id of the first active waiver (oldest first) that matches, else undefined. */
  match(issue: WaivableIssue): string | undefined;
}

/**
 * Compiles the active waivers of a site once (globs become regular expressions) and indexes them by
 * rule, so matching 50,000 issues costs one map lookup each when no waiver names their rule.
 * Expired and revoked waivers are dropped here, so they never match.
 */
export function compileWaivers(waivers: readonly WaiverRule[], now: string): WaiverMatcher {
  const byRule = new Map<string, CompiledWaiver[]>();
  const active = waivers
    .filter((w) => waiverState(w, now) === 'active')
    .sort((a, b) =>
      a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1,
    );
  for (const w of active) {
    const list = byRule.get(w.rule) ?? [];
    list.push({
      id: w.id,
      selector: w.selector ? normaliseWaiverSelector(w.selector) : null,
      fingerprint: w.fingerprint ? w.fingerprint.toLowerCase() : null,
      url: w.url_pattern ? urlMatcher(w.url_pattern) : null,
    });
    byRule.set(w.rule, list);
  }
  return {
    size: active.length,
    match(issue) {
      const candidates = byRule.get(issue.rule);
      if (!candidates) return undefined;
      for (const c of candidates) {
        if (c.fingerprint && c.fingerprint !== issue.fingerprint.toLowerCase()) continue;
        if (c.selector && (!issue.selector || c.selector !== normaliseWaiverSelector(issue.selector)))
          continue;
        if (c.url && !issue.pageUrls.some((u) => c.url!(u))) continue;
        return c.id;
      }
      return undefined;
    },
  };
}
