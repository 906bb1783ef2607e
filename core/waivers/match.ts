import { urlMatcher } from './glob.js';
import { normalizeSelector } from '../matching/selector-normalisation.js';
import type { GateScanIssue } from '../gate/issues.js';

/** A waiver as the gate sees it (docs/gate.md). Every criterion that is set must match. */
export interface WaiverRule {
  id: string;
  rule: string;
  selector: string | null;
  urlPattern: string | null;
  fingerprint: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
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
export function waiverState(w: Pick<WaiverRule, 'expiresAt' | 'revokedAt'>, now: string): WaiverState {
  if (w.revokedAt) return 'revoked';
  // RFC 3339 UTC strings with milliseconds compare correctly as text; parse to be safe with offsets.
  if (w.expiresAt && Date.parse(w.expiresAt) <= Date.parse(now)) return 'expired';
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
  /** Position in oldest-first order: the lowest that matches is named. */
  order: number;
  fingerprint: string | null;
  url: ((url: string) => boolean) | null;
}

/** A rule's waivers: those without a selector, and those with one indexed by the normalised selector. */
interface RuleWaivers {
  any: CompiledWaiver[];
  bySelector: Map<string, CompiledWaiver[]>;
}

export interface WaiverMatcher {
  /** How many active waivers take part. */
  readonly size: number;
  /** The id of the first active waiver (oldest first) that matches, else undefined. */
  match(issue: WaivableIssue): string | undefined;
}

/**
 * Compiles the active waivers of a site once (globs become matchers) and indexes them by rule, then
 * by normalised selector, so matching 50,000 issues costs one map lookup each when no waiver names
 * their rule, and an issue's selector is normalised once however many waivers name one (not once per
 * waiver, which made many selector waivers on a large scan take seconds).
 * Expired and revoked waivers are dropped here, so they never match.
 */
export function compileWaivers(waivers: readonly WaiverRule[], now: string): WaiverMatcher {
  const byRule = new Map<string, RuleWaivers>();
  const active = waivers
    .filter((w) => waiverState(w, now) === 'active')
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  active.forEach((w, order) => {
    let group = byRule.get(w.rule);
    if (!group) byRule.set(w.rule, (group = { any: [], bySelector: new Map() }));
    const compiled: CompiledWaiver = {
      id: w.id,
      order,
      fingerprint: w.fingerprint ? w.fingerprint.toLowerCase() : null,
      url: w.urlPattern ? urlMatcher(w.urlPattern) : null,
    };
    if (!w.selector) {
      group.any.push(compiled);
      return;
    }
    const key = normaliseWaiverSelector(w.selector);
    const list = group.bySelector.get(key) ?? [];
    list.push(compiled);
    group.bySelector.set(key, list);
  });
  // The same element is usually reported on many pages (header, footer): normalise each text once.
  const normalised = new Map<string, string>();
  const selectorKey = (selector: string): string => {
    let key = normalised.get(selector);
    if (key === undefined) {
      key = normaliseWaiverSelector(selector);
      if (normalised.size < 100_000) normalised.set(selector, key);
    }
    return key;
  };
  return {
    size: active.length,
    match(issue) {
      const group = byRule.get(issue.rule);
      if (!group) return undefined;
      let best: CompiledWaiver | undefined;
      // Each list is oldest first: its first fit is its oldest; the older of the two lists' wins.
      const consider = (list: readonly CompiledWaiver[]) => {
        for (const c of list) {
          if (best && c.order > best.order) return;
          if (c.fingerprint && c.fingerprint !== issue.fingerprint.toLowerCase()) continue;
          if (c.url && !issue.pageUrls.some((u) => c.url!(u))) continue;
          best = c;
          return;
        }
      };
      consider(group.any);
      if (group.bySelector.size > 0 && issue.selector) {
        const list = group.bySelector.get(selectorKey(issue.selector));
        if (list) consider(list);
      }
      return best?.id;
    },
  };
}

/**
 * The gate's waiver look-up: the waiver that covers a head issue, or the baseline issue it was matched to
 * (a waiver follows its element when the selector changes); null when there are no waivers.
 */
export function waiverFinder(
  waivers: WaiverMatcher,
): ((issue: GateScanIssue, paired: GateScanIssue | null) => string | undefined) | null {
  if (waivers.size === 0) return null;
  const urls: string[] = [];
  const probe: WaivableIssue = { rule: '', selector: null, fingerprint: '', pageUrls: urls };
  const one = (issue: GateScanIssue) => {
    probe.rule = issue.rule;
    probe.selector = issue.selector;
    probe.fingerprint = issue.fingerprint;
    urls.length = 0;
    urls.push(issue.page.url);
    if (issue.page.normalizedUrl && issue.page.normalizedUrl !== issue.page.url)
      urls.push(issue.page.normalizedUrl);
    return waivers.match(probe);
  };
  return (issue, paired) => one(issue) ?? (paired && paired.rule ? one(paired) : undefined);
}
