import type { Knex } from 'knex';
import type { EvidenceGroup } from '../../domain/vpat/evidence-tally.js';
import { compileWaivers, waiverState, type WaiverRule } from '../../../core/waivers/match.js';
import { scanWaiverLookup, type WaiverViewPage } from '../../domain/waivers/scan-waivers.js';
import { dialectOf } from '../db.js';
import { activeWaiversForSite } from '../waivers/waivers.js';

/**
 * A scan's issues as the VPAT reads them: counted by (rule, kind, criteria, page) in the database, a
 * range of pages per query, so each query and the groups it returns stay about the same size whatever
 * the scan's size, and no issue row crosses into JavaScript except those a selector or fingerprint
 * waiver has to be matched against.
 */

/**
 * Issues counted per query (the page range is sized from the scan's average issues per page). SQLite's
 * one connection is held by each query, so its ranges are smaller; PostgreSQL answers other requests on
 * other connections meanwhile, and fewer round trips keep a report close to the one `GROUP BY`.
 */
export const ISSUES_PER_RANGE = { sqlite: 10_000, postgres: 50_000 } as const;

const PAGE_INDEX = 'scan_issues_scan_id_page_index_index';

/** Half-open page-index ranges covering every issue: the first has no lower bound, the last no upper. */
export function pageRanges(
  pageIndexes: readonly number[],
  issueCount: number,
  perRange: number,
): Array<{ from?: number; to?: number }> {
  if (pageIndexes.length === 0) return [{}];
  const perPage = Math.max(1, issueCount) / pageIndexes.length;
  const pages = Math.max(1, Math.floor(perRange / perPage));
  const ranges: Array<{ from?: number; to?: number }> = [];
  for (let i = 0; i < pageIndexes.length; i += pages) {
    ranges.push({
      from: i === 0 ? undefined : pageIndexes[i],
      to: i + pages >= pageIndexes.length ? undefined : pageIndexes[i + pages],
    });
  }
  return ranges;
}

function inRange(db: Knex, scanId: string, range: { from?: number; to?: number }): Knex.QueryBuilder {
  // SQLite is told to seek the range by the (scan, page) index; its planner otherwise prefers the rule
  // index for the GROUP BY and reads the whole scan for each range.
  const bounded = range.from !== undefined || range.to !== undefined;
  const table =
    bounded && dialectOf(db) === 'sqlite' ? db.raw(`scan_issues indexed by ${PAGE_INDEX}`) : 'scan_issues';
  const q = db.from(table).where('scan_id', scanId);
  if (range.from !== undefined) q.andWhere('page_index', '>=', range.from);
  if (range.to !== undefined) q.andWhere('page_index', '<', range.to);
  return q;
}

interface GroupRow {
  rule: string;
  kind: string;
  wcag: string | null;
  page_index: number | string;
  n: number | string;
}

const groupKey = (rule: string, kind: string, wcag: string | null, page: number) =>
  `${rule}\u0000${kind}\u0000${wcag ?? ''}\u0000${page}`;

/** What the site's active waivers need from each range. */
interface Waivers {
  lookup: ReturnType<typeof scanWaiverLookup>;
  /** Rules some waiver names at all. */
  rules: Set<string>;
  /** Rules a selector or fingerprint waiver names: their violations are matched row by row. */
  byIssue: string[];
}

async function siteWaivers(
  db: Knex,
  scan: { org: string; siteId: string },
  pages: readonly WaiverViewPage[],
  now: string,
): Promise<Waivers> {
  const active = (await activeWaiversForSite(db, scan.org, scan.siteId, now)).filter(
    (w: WaiverRule) => waiverState(w, now) === 'active',
  );
  return {
    lookup: scanWaiverLookup(compileWaivers(active, now), pages),
    rules: new Set(active.map((w) => w.rule)),
    byIssue: [...new Set(active.filter((w) => w.selector || w.fingerprint).map((w) => w.rule))],
  };
}

/** Fills `waived` on one range's groups: whole groups where waivers name only rule and pages. */
async function countWaived(
  db: Knex,
  scanId: string,
  range: { from?: number; to?: number },
  groups: Map<string, EvidenceGroup>,
  waivers: Waivers,
): Promise<void> {
  const byIssue = new Set(waivers.byIssue);
  for (const g of groups.values()) {
    if (g.kind !== 'violation' || !waivers.rules.has(g.rule) || byIssue.has(g.rule)) continue;
    const id = waivers.lookup({ pageIndex: g.page, rule: g.rule, selector: null, fingerprint: '' });
    if (id) g.waived = g.count;
  }
  if (waivers.byIssue.length === 0) return;
  const rows = await inRange(db, scanId, range)
    .whereIn('rule', waivers.byIssue)
    .andWhere('kind', 'violation')
    .select<
      Array<{
        page_index: number | string;
        rule: string;
        wcag: string | null;
        selector: string | null;
        fingerprint: string;
      }>
    >('page_index', 'rule', 'wcag', 'selector', 'fingerprint');
  for (const r of rows) {
    const pageIndex = Number(r.page_index);
    if (!waivers.lookup({ pageIndex, rule: r.rule, selector: r.selector, fingerprint: r.fingerprint }))
      continue;
    const g = groups.get(groupKey(r.rule, 'violation', r.wcag, pageIndex));
    if (g) g.waived = (g.waived ?? 0) + 1;
  }
}

/** The help URL the scan stored for each of these rules in the range (the largest, as text). */
async function storedHelpUrls(
  db: Knex,
  scanId: string,
  range: { from?: number; to?: number },
  rules: readonly string[],
): Promise<Array<{ rule: string; help_url: string | null }>> {
  if (rules.length === 0) return [];
  return inRange(db, scanId, range)
    .whereIn('rule', [...rules])
    .whereNotNull('help_url')
    .groupBy('rule')
    .select('rule')
    .max<Array<{ rule: string; help_url: string | null }>>({ help_url: 'help_url' });
}

/**
 * The scan's issue groups, one page range at a time, each with its waived count; `help` gathers the
 * largest stored help URL of each rule axe-core does not know (`knownHelp`), for the caller to apply
 * once every range is read (a group's own `helpUrl` is left null).
 */
export async function* evidenceGroups(
  db: Knex,
  scan: { id: string; org: string; siteId: string; issueCount: number },
  pages: readonly WaiverViewPage[],
  now: string,
  knownHelp: ReadonlySet<string>,
  help: Map<string, string>,
  perRange: number = ISSUES_PER_RANGE[dialectOf(db)],
): AsyncGenerator<EvidenceGroup[]> {
  const waivers = await siteWaivers(db, scan, pages, now);
  const ranges = pageRanges(
    pages.map((p) => p.index),
    scan.issueCount,
    perRange,
  );
  for (const range of ranges) {
    const rows = await inRange(db, scan.id, range)
      .groupBy('rule', 'kind', 'wcag', 'page_index')
      .select('rule', 'kind', 'wcag', 'page_index')
      .count<GroupRow[]>({ n: '*' });
    const groups = new Map<string, EvidenceGroup>();
    const unknown = new Set<string>();
    for (const r of rows) {
      const page = Number(r.page_index);
      const g: EvidenceGroup = {
        rule: r.rule,
        kind: r.kind,
        wcag: r.wcag,
        page,
        count: Number(r.n),
        helpUrl: null,
        waived: 0,
      };
      groups.set(groupKey(r.rule, r.kind, r.wcag, page), g);
      if (!knownHelp.has(r.rule)) unknown.add(r.rule);
    }
    if (waivers.rules.size > 0) await countWaived(db, scan.id, range, groups, waivers);
    for (const h of await storedHelpUrls(db, scan.id, range, [...unknown])) {
      if (h.help_url && h.help_url > (help.get(h.rule) ?? '')) help.set(h.rule, h.help_url);
    }
    yield [...groups.values()];
  }
}
