import type { Knex } from 'knex';
import type { EvidenceGroup, ScanEvidence } from '../../domain/vpat/evidence-tally.js';
import { findScan, latestScanOnBranch, type ScanRecord } from '../scans/scans.js';
import { getSite } from '../sites/sites.js';
import { countWaived } from './waived.js';

/**
 * What a VPAT reads from the scan aggregate: one scan (through the scan store), its pages, and its
 * issues aggregated by (rule, kind, wcag, page) in the database, so a 50,000-issue scan never crosses
 * into JavaScript row by row. Active waivers of the site are matched only against the issues of the
 * rules they name, to say how many violations are waived (they still count).
 */

export interface EvidenceScan {
  id: string;
  org: string;
  siteId: string;
  url: string;
  sha: string | null;
  branch: string | null;
  engineName: string | null;
  engineVersion: string | null;
  pageCount: number;
  issueCount: number;
  /** null = the scan did not say which rules ran. */
  rulesRun: string[] | null;
  /** The fingerprint version the scan's issues were fingerprinted with. */
  fingerprintVersion: number;
  /** The scan's own suspicions (login-page trap, HTTP errors, …), as stored at ingest. */
  warnings: Array<{ code: string; message: string }>;
  createdAt: string;
}

function toEvidenceScan(s: ScanRecord): EvidenceScan {
  return {
    id: s.id,
    org: s.org,
    siteId: s.siteId,
    url: s.url,
    sha: s.sha,
    branch: s.branch,
    engineName: s.engine?.name ?? null,
    engineVersion: s.engine?.version ?? null,
    pageCount: Number(s.pageCount),
    issueCount: Number(s.issueCount),
    rulesRun: s.rulesRun,
    fingerprintVersion: Number(s.fingerprintVersion),
    warnings: s.warnings.map((w) => ({ code: w.code, message: w.message })),
    createdAt: s.createdAt,
  };
}

export interface EvidencePageRow {
  index: number;
  url: string;
  normalizedUrl: string;
  rulesRun: string[] | null;
  /** The rules that ran there with nothing to test (null: the page did not say). */
  rulesInapplicable: string[] | null;
}

export async function findEvidenceScan(db: Knex, org: string, id: string): Promise<EvidenceScan | undefined> {
  const scan = await findScan(db, org, id);
  return scan ? toEvidenceScan(scan) : undefined;
}

/** The site's base branch (`main` when the site has no settings row). */
export async function baseBranch(db: Knex, org: string, siteId: string): Promise<string> {
  return (await getSite(db, org, siteId))?.baseBranch ?? 'main';
}

export async function latestEvidenceScan(
  db: Knex,
  org: string,
  siteId: string,
  branch: string,
): Promise<EvidenceScan | undefined> {
  const scan = await latestScanOnBranch(db, org, siteId, branch);
  return scan ? toEvidenceScan(scan) : undefined;
}

/** The aggregate every report starts from: issue counts by rule, kind, criteria and page. */
async function issueGroups(db: Knex, scanId: string): Promise<EvidenceGroup[]> {
  const rows = await db('scan_issues')
    .where({ scan_id: scanId })
    .groupBy('rule', 'kind', 'wcag', 'page_index')
    .select('rule', 'kind', 'wcag', 'page_index')
    .count<
      Array<{
        rule: string;
        kind: string;
        wcag: string | null;
        page_index: number;
        n: number | string;
      }>
    >({ n: '*' });
  return rows.map((r) => ({
    rule: r.rule,
    kind: r.kind,
    wcag: r.wcag,
    page: Number(r.page_index),
    count: Number(r.n),
    helpUrl: null,
  }));
}

/** The help URL the scan stored for each of these rules (one query; only for rules axe-core does not know). */
async function storedHelpUrls(
  db: Knex,
  scanId: string,
  rules: readonly string[],
): Promise<Map<string, string>> {
  if (rules.length === 0) return new Map();
  const rows = await db('scan_issues')
    .where({ scan_id: scanId })
    .whereIn('rule', [...rules])
    .whereNotNull('help_url')
    .groupBy('rule')
    .select('rule')
    .max<Array<{ rule: string; help_url: string | null }>>({ help_url: 'help_url' });
  return new Map(rows.filter((r) => r.help_url).map((r) => [r.rule, r.help_url as string]));
}

interface PageRow {
  page_index: number;
  url: string;
  normalized_url: string;
  rules_run: string | null;
  rules_inapplicable: string | null;
}

/** The scan's pages, each with the rules that ran on it (null: the page did not say). */
async function evidencePages(db: Knex, scanId: string): Promise<EvidencePageRow[]> {
  const rows = await db('scan_pages')
    .where({ scan_id: scanId })
    .orderBy('page_index')
    .select('page_index', 'url', 'normalized_url', 'rules_run', 'rules_inapplicable');
  // Native pages share the body's list, and axe pages of one site mostly ran the same rules: parse each
  // distinct list once (the derivation only reads them).
  const parsed = new Map<string, string[]>();
  const list = (text: string) => {
    let ids = parsed.get(text);
    if (!ids) parsed.set(text, (ids = JSON.parse(text) as string[]));
    return ids;
  };
  return rows.map((r: PageRow) => ({
    index: Number(r.page_index),
    url: r.url,
    normalizedUrl: r.normalized_url,
    rulesRun: r.rules_run === null ? null : list(r.rules_run),
    rulesInapplicable: r.rules_inapplicable === null ? null : list(r.rules_inapplicable),
  }));
}

/**
 * Everything the derivation needs about one scan. Help URLs of the rules axe-core knows come from the
 * installed package (`knownHelp`); the scan's stored ones are read only for other rules, which keeps
 * the big aggregate as lean as the bench's floor.
 */
export async function readEvidence(
  db: Knex,
  scan: EvidenceScan,
  now: string,
  knownHelp: ReadonlySet<string> = new Set(),
): Promise<ScanEvidence> {
  const [pages, groups] = await Promise.all([evidencePages(db, scan.id), issueGroups(db, scan.id)]);
  const unknown = [...new Set(groups.map((g) => g.rule))].filter((r) => !knownHelp.has(r));
  const stored = await storedHelpUrls(db, scan.id, unknown);
  for (const g of groups) g.helpUrl = stored.get(g.rule) ?? null;
  const waiversKnown = await countWaived(db, scan, pages, groups, now);
  return {
    pages: pages.map((p) => ({
      index: p.index,
      url: p.url,
      rulesRun: p.rulesRun,
      rulesInapplicable: p.rulesInapplicable,
    })),
    rulesRun: scan.rulesRun,
    groups,
    waiversKnown,
  };
}
