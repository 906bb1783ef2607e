import type { Knex } from 'knex';
import type { EvidenceGroup, ScanEvidence } from '../domain/vpat-derive.js';
import { compileWaivers, type WaiverRule } from '../domain/waiver-match.js';
import { findScan, latestScanOnBranch, type ScanRecord } from './scans.js';
import { getSite } from './sites.js';

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
    pageCount: Number(s.page_count),
    issueCount: Number(s.issue_count),
    rulesRun: s.rules_run,
    warnings: s.warnings.map((w) => ({ code: w.code, message: w.message })),
    createdAt: s.created_at,
  };
}

const groupKey = (rule: string, kind: string, wcag: string | null, page: number) =>
  `${rule}\u0000${kind}\u0000${wcag ?? ''}\u0000${page}`;

export class VpatEvidenceRepository {
  private waiversTable: Promise<boolean> | undefined;

  constructor(private readonly db: Knex) {}

  async findScan(org: string, id: string): Promise<EvidenceScan | undefined> {
    const scan = await findScan(this.db, org, id);
    return scan ? toEvidenceScan(scan) : undefined;
  }

  /** The site's base branch (`main` when the site has no settings row). */
  async baseBranch(org: string, siteId: string): Promise<string> {
    return (await getSite(this.db, org, siteId))?.base_branch ?? 'main';
  }

  async latestScanOnBranch(org: string, siteId: string, branch: string): Promise<EvidenceScan | undefined> {
    const scan = await latestScanOnBranch(this.db, org, siteId, branch);
    return scan ? toEvidenceScan(scan) : undefined;
  }

  /** The aggregate every report starts from: issue counts by rule, kind, criteria and page. */
  async issueGroups(scanId: string): Promise<EvidenceGroup[]> {
    const rows = (await this.db('scan_issues')
      .where({ scan_id: scanId })
      .groupBy('rule', 'kind', 'wcag', 'page_index')
      .select('rule', 'kind', 'wcag', 'page_index')
      .count({ n: '*' })) as Array<{
      rule: string;
      kind: string;
      wcag: string | null;
      page_index: number;
      n: number | string;
    }>;
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
  async helpUrls(scanId: string, rules: readonly string[]): Promise<Map<string, string>> {
    if (rules.length === 0) return new Map();
    const rows = (await this.db('scan_issues')
      .where({ scan_id: scanId })
      .whereIn('rule', [...rules])
      .whereNotNull('help_url')
      .groupBy('rule')
      .select('rule')
      .max({ help_url: 'help_url' })) as Array<{ rule: string; help_url: string | null }>;
    return new Map(rows.filter((r) => r.help_url).map((r) => [r.rule, r.help_url as string]));
  }

  async pages(scanId: string): Promise<Array<{ index: number; url: string; normalizedUrl: string }>> {
    const rows = await this.db('scan_pages')
      .where({ scan_id: scanId })
      .orderBy('page_index')
      .select('page_index', 'url', 'normalized_url');
    return rows.map((r: { page_index: number; url: string; normalized_url: string }) => ({
      index: Number(r.page_index),
      url: r.url,
      normalizedUrl: r.normalized_url,
    }));
  }

  /**
   * Everything the derivation needs about one scan. Help URLs of the rules axe-core knows come from the
   * installed package (`knownHelp`); the scan's stored ones are read only for other rules, which keeps
   * the big aggregate as lean as the bench's floor.
   */
  async evidence(
    scan: EvidenceScan,
    now: string,
    knownHelp: ReadonlySet<string> = new Set(),
  ): Promise<ScanEvidence> {
    const [pages, groups] = await Promise.all([this.pages(scan.id), this.issueGroups(scan.id)]);
    const unknown = [...new Set(groups.map((g) => g.rule))].filter((r) => !knownHelp.has(r));
    const stored = await this.helpUrls(scan.id, unknown);
    for (const g of groups) g.helpUrl = stored.get(g.rule) ?? null;
    const waiversKnown = await this.countWaived(scan, pages, groups, now);
    return {
      pages: pages.map((p) => ({ index: p.index, url: p.url })),
      rulesRun: scan.rulesRun,
      groups,
      waiversKnown,
    };
  }

  private hasWaivers(): Promise<boolean> {
    this.waiversTable ??= this.db.schema.hasTable('waivers');
    return this.waiversTable;
  }

  /** Fills `waived` on the violation groups; false when there is no waivers table (yet). */
  private async countWaived(
    scan: EvidenceScan,
    pages: Array<{ index: number; url: string; normalizedUrl: string }>,
    groups: EvidenceGroup[],
    now: string,
  ): Promise<boolean> {
    if (!(await this.hasWaivers())) return false;
    const waivers = (await this.db('waivers')
      .where({ org: scan.org, site_id: scan.siteId })
      .whereNull('revoked_at')
      .select(
        'id',
        'rule',
        'selector',
        'url_pattern',
        'fingerprint',
        'expires_at',
        'revoked_at',
        'created_at',
      )) as WaiverRule[];
    const matcher = compileWaivers(waivers, now);
    for (const g of groups) g.waived = 0;
    if (matcher.size === 0) return true;
    const rules = [...new Set(waivers.map((w) => w.rule))];
    const byKey = new Map(groups.map((g) => [groupKey(g.rule, g.kind, g.wcag, g.page), g]));
    const pageUrls = new Map(pages.map((p) => [p.index, [p.url, p.normalizedUrl]]));
    const issues = (await this.db('scan_issues')
      .where({ scan_id: scan.id, kind: 'violation' })
      .whereIn('rule', rules)
      .select('rule', 'kind', 'wcag', 'page_index', 'selector', 'fingerprint')) as Array<{
      rule: string;
      kind: string;
      wcag: string | null;
      page_index: number;
      selector: string | null;
      fingerprint: string;
    }>;
    for (const i of issues) {
      const page = Number(i.page_index);
      const matched = matcher.match({
        rule: i.rule,
        selector: i.selector,
        fingerprint: i.fingerprint,
        pageUrls: pageUrls.get(page) ?? [],
      });
      if (!matched) continue;
      const g = byKey.get(groupKey(i.rule, i.kind, i.wcag, page));
      if (g) g.waived = (g.waived ?? 0) + 1;
    }
    return true;
  }
}
