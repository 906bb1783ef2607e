import type { Knex } from 'knex';
import { FINGERPRINT_VERSION, issueFingerprint } from '../../domain/matching/fingerprint.js';
import { urlMatcher } from '../../domain/waivers/glob.js';
import { pageKey } from '../../domain/url-normalisation.js';
import type { EvidenceGroup } from '../../domain/vpat/evidence-tally.js';
import { compileWaivers, waiverState, type WaiverRule } from '../../domain/waivers/match.js';

/**
 * How many of a scan's violations the site's active waivers cover, for the VPAT's remarks (waived
 * violations still count against conformance). Read from the aggregate where a waiver covers whole
 * (rule, page) groups; issue rows are read only for selector and fingerprint waivers.
 */

/** The scan as the waiver count needs it. */
export interface WaivedScan {
  id: string;
  org: string;
  siteId: string;
  fingerprintVersion: number;
}

interface IssueForWaiver {
  rule: string;
  kind: string;
  wcag: string | null;
  page_index: number;
  selector: string | null;
  fingerprint: string;
}

const groupKey = (rule: string, kind: string, wcag: string | null, page: number) =>
  `${rule}\u0000${kind}\u0000${wcag ?? ''}\u0000${page}`;

const waiverTables = new WeakMap<Knex, Promise<boolean>>();

function hasWaivers(db: Knex): Promise<boolean> {
  let known = waiverTables.get(db);
  if (!known) waiverTables.set(db, (known = db.schema.hasTable('waivers')));
  return known;
}

/**
 * Fills `waived` on the violation groups; false when there is no waivers table (yet). A waiver without
 * a selector or fingerprint waives every violation of its rule on the pages its url_pattern matches (on
 * every page without one), so it is decided per (rule, page) group from the aggregate; only the rules
 * that selector or fingerprint waivers name have their issue rows read.
 */
export async function countWaived(
  db: Knex,
  scan: WaivedScan,
  pages: Array<{ index: number; url: string; normalizedUrl: string }>,
  groups: EvidenceGroup[],
  now: string,
): Promise<boolean> {
  if (!(await hasWaivers(db))) return false;
  const waivers = await db('waivers')
    .where({ org: scan.org, site_id: scan.siteId })
    .whereNull('revoked_at')
    .select<WaiverRule[]>(
      'id',
      'rule',
      'selector',
      'url_pattern as urlPattern',
      'fingerprint',
      'expires_at as expiresAt',
      'revoked_at as revokedAt',
      'created_at as createdAt',
    );
  for (const g of groups) g.waived = 0;
  const active = waivers.filter((w) => waiverState(w, now) === 'active');
  if (active.length === 0) return true;
  const pageUrls = new Map(pages.map((p) => [p.index, [p.url, p.normalizedUrl]]));

  const pageLevel = new Map<string, Array<((url: string) => boolean) | null>>();
  const issueLevel: WaiverRule[] = [];
  for (const w of active) {
    if (w.selector || w.fingerprint) {
      issueLevel.push(w);
      continue;
    }
    const list = pageLevel.get(w.rule) ?? [];
    list.push(w.urlPattern ? urlMatcher(w.urlPattern) : null);
    pageLevel.set(w.rule, list);
  }
  const wholeGroup = (rule: string, page: number): boolean => {
    const list = pageLevel.get(rule);
    if (!list) return false;
    const urls = pageUrls.get(page) ?? [];
    return list.some((m) => m === null || urls.some((u) => m(u)));
  };
  const byKey = new Map<string, EvidenceGroup>();
  for (const g of groups) {
    if (g.kind !== 'violation') continue;
    if (wholeGroup(g.rule, g.page)) g.waived = g.count;
    else byKey.set(groupKey(g.rule, g.kind, g.wcag, g.page), g);
  }
  if (issueLevel.length === 0 || byKey.size === 0) return true;

  const matcher = compileWaivers(issueLevel, now);
  const issues = await waiverCandidates(db, scan, pages, issueLevel);
  for (const i of issues) {
    const page = Number(i.page_index);
    // Groups a page-level waiver already covers whole are not in byKey.
    const g = byKey.get(groupKey(i.rule, i.kind, i.wcag, page));
    if (!g) continue;
    const matched = matcher.match({
      rule: i.rule,
      selector: i.selector,
      fingerprint: i.fingerprint,
      pageUrls: pageUrls.get(page) ?? [],
    });
    if (matched) g.waived = (g.waived ?? 0) + 1;
  }
  return true;
}

/**
 * The violations that selector or fingerprint waivers could match, read by fingerprint through the
 * (scan_id, fingerprint) index instead of every issue of their rules: an issue matches a selector waiver
 * exactly when its fingerprint is sha256(rule | page key | normalised waiver selector) for its page
 * (the waiver compares selectors normalised the same way). Every row read is still checked by the
 * matcher. Scans fingerprinted by another version are read by rule, as before.
 */
export async function waiverCandidates(
  db: Knex,
  scan: WaivedScan,
  pages: Array<{ index: number; url: string; normalizedUrl: string }>,
  waivers: readonly WaiverRule[],
): Promise<IssueForWaiver[]> {
  const columns = ['rule', 'kind', 'wcag', 'page_index', 'selector', 'fingerprint'];
  const rules = [...new Set(waivers.map((w) => w.rule))];
  if (scan.fingerprintVersion !== FINGERPRINT_VERSION) {
    return await db('scan_issues')
      .where({ scan_id: scan.id, kind: 'violation' })
      .whereIn('rule', rules)
      .select<IssueForWaiver[]>(columns);
  }
  const fingerprints = new Set<string>();
  for (const w of waivers) {
    if (w.fingerprint) {
      fingerprints.add(w.fingerprint.toLowerCase());
      continue;
    }
    const url = w.urlPattern ? urlMatcher(w.urlPattern) : null;
    for (const p of pages) {
      if (url && !url(p.url) && !url(p.normalizedUrl)) continue;
      fingerprints.add(
        issueFingerprint({ rule: w.rule, pageKey: pageKey(p.normalizedUrl), selector: w.selector }),
      );
    }
  }
  const all = [...fingerprints];
  const out: IssueForWaiver[] = [];
  // ≤ 500 values per statement (SQLite's limit on bound parameters in older builds is 999).
  for (let i = 0; i < all.length; i += 500) {
    const rows = await db('scan_issues')
      .where({ scan_id: scan.id, kind: 'violation' })
      .whereIn('fingerprint', all.slice(i, i + 500))
      .whereIn('rule', rules)
      .select<IssueForWaiver[]>(columns);
    out.push(...rows);
  }
  return out;
}
