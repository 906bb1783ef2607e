import type { Knex } from 'knex';
import type { EvidenceGroup, ScanEvidence } from '../domain/vpat-derive.js';
import { FINGERPRINT_VERSION, issueFingerprint } from '../domain/fingerprint.js';
import { urlMatcher } from '../domain/glob.js';
import { pageKey } from '../domain/url-normalisation.js';
import { compileWaivers, waiverState, type WaiverRule } from '../domain/waiver-match.js';
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
    pageCount: Number(s.page_count),
    issueCount: Number(s.issue_count),
    rulesRun: s.rules_run,
    fingerprintVersion: Number(s.fingerprint_version),
    warnings: s.warnings.map((w) => ({ code: w.code, message: w.message })),
    createdAt: s.created_at,
  };
}

interface IssueForWaiver {
  rule: string;
  kind: string;
  wcag: string | null;
  page_index: number;
  selector: string | null;
  fingerprint: string;
}

export interface EvidencePageRow {
  index: number;
  url: string;
  normalizedUrl: string;
  rulesRun: string[] | null;
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

  /** The scan's pages, each with the rules that ran on it (null: the page did not say). */
  async pages(scanId: string): Promise<EvidencePageRow[]> {
    const rows = await this.db('scan_pages')
      .where({ scan_id: scanId })
      .orderBy('page_index')
      .select('page_index', 'url', 'normalized_url', 'rules_run');
    // Native pages share the body's list, and axe pages of one site mostly ran the same rules: parse each
    // distinct list once (the derivation only reads them).
    const parsed = new Map<string, string[]>();
    const list = (text: string) => {
      let ids = parsed.get(text);
      if (!ids) parsed.set(text, (ids = JSON.parse(text) as string[]));
      return ids;
    };
    return rows.map(
      (r: { page_index: number; url: string; normalized_url: string; rules_run: string | null }) => ({
        index: Number(r.page_index),
        url: r.url,
        normalizedUrl: r.normalized_url,
        rulesRun: r.rules_run === null ? null : list(r.rules_run),
      }),
    );
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
      pages: pages.map((p) => ({ index: p.index, url: p.url, rulesRun: p.rulesRun })),
      rulesRun: scan.rulesRun,
      groups,
      waiversKnown,
    };
  }

  private hasWaivers(): Promise<boolean> {
    this.waiversTable ??= this.db.schema.hasTable('waivers');
    return this.waiversTable;
  }

  /**
   * Fills `waived` on the violation groups; false when there is no waivers table (yet). A waiver without
   * a selector or fingerprint waives every violation of its rule on the pages its url_pattern matches (on
   * every page without one), so it is decided per (rule, page) group from the aggregate; only the rules
   * that selector or fingerprint waivers name have their issue rows read.
   */
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
      list.push(w.url_pattern ? urlMatcher(w.url_pattern) : null);
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
    const issues = await this.waiverCandidates(scan, pages, issueLevel);
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
  private async waiverCandidates(
    scan: EvidenceScan,
    pages: Array<{ index: number; url: string; normalizedUrl: string }>,
    waivers: readonly WaiverRule[],
  ): Promise<IssueForWaiver[]> {
    const columns = ['rule', 'kind', 'wcag', 'page_index', 'selector', 'fingerprint'];
    const rules = [...new Set(waivers.map((w) => w.rule))];
    if (scan.fingerprintVersion !== FINGERPRINT_VERSION) {
      return (await this.db('scan_issues')
        .where({ scan_id: scan.id, kind: 'violation' })
        .whereIn('rule', rules)
        .select(columns)) as IssueForWaiver[];
    }
    const fingerprints = new Set<string>();
    for (const w of waivers) {
      if (w.fingerprint) {
        fingerprints.add(w.fingerprint.toLowerCase());
        continue;
      }
      const url = w.url_pattern ? urlMatcher(w.url_pattern) : null;
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
      const rows = (await this.db('scan_issues')
        .where({ scan_id: scan.id, kind: 'violation' })
        .whereIn('fingerprint', all.slice(i, i + 500))
        .whereIn('rule', rules)
        .select(columns)) as IssueForWaiver[];
      out.push(...rows);
    }
    return out;
  }
}
