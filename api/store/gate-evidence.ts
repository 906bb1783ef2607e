import type { Knex } from 'knex';
import type { BaselineIssue, GatePage, HeadIssue, Impact, IssueKind, ScanRef } from '../domain/gate.js';

/**
 * What the deploy gate reads from the scan aggregate (tables of the scans feature, read only here).
 * The issue reads are shaped for speed: the 50,000-issue head and baseline are read with one plain
 * query each and only the columns the decision needs; the details (message, wcag, source, …) are
 * fetched afterwards for the few issues a deploy event lists.
 */

export interface ScanDetailRow {
  id: number;
  rule: string;
  impact: Impact | null;
  kind: IssueKind;
  message: string | null;
  selector: string | null;
  wcag: string | null;
  help_url: string | null;
  source_path: string | null;
  source_line: number | null;
  fingerprint: string;
  page_url: string;
}

const SCAN_COLUMNS = ['id', 'sha', 'branch', 'created_at'] as const;

export class GateEvidence {
  constructor(private readonly db: Knex) {}

  /** The latest scan of the site with that sha (the head scan), if any. */
  async latestScanForSha(org: string, siteId: string, sha: string): Promise<ScanRef | undefined> {
    return (await this.db('scans')
      .where({ org, site_id: siteId, sha })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first(...SCAN_COLUMNS)) as ScanRef | undefined;
  }

  /**
   * The latest scan on `branch` created before `before`, whose sha is not `excludeSha` (a scan
   * without a sha qualifies).
   */
  async latestOnBranchBefore(
    org: string,
    siteId: string,
    branch: string,
    before: string,
    excludeSha: string | null,
  ): Promise<ScanRef | undefined> {
    const q = this.db('scans')
      .where({ org, site_id: siteId, branch })
      .andWhere('created_at', '<', before)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    if (excludeSha) q.andWhere((w) => w.whereNot('sha', excludeSha).orWhereNull('sha'));
    return (await q.first(...SCAN_COLUMNS)) as ScanRef | undefined;
  }

  /**
   * The head scan's issues for evaluation. Rule, selector and page URLs only matter to waivers: with
   * no active waiver for the site they are not read at all (`rule` is then empty and `selector` null).
   */
  async headIssues(scanId: string, forWaivers: boolean): Promise<HeadIssue[]> {
    if (!forWaivers) {
      const rows = (await this.db('scan_issues')
        .where({ scan_id: scanId })
        .select('id', 'fingerprint', 'impact', 'kind')) as Array<{
        id: number;
        fingerprint: string;
        impact: Impact | null;
        kind: IssueKind;
      }>;
      const page: GatePage = { url: '' };
      return rows.map((r) => ({
        ref: r.id,
        fingerprint: r.fingerprint,
        rule: '',
        impact: r.impact,
        kind: r.kind,
        selector: null,
        page,
      }));
    }
    const pages = new Map<number, GatePage>();
    const pageRows = (await this.db('scan_pages')
      .where({ scan_id: scanId })
      .select('page_index', 'url', 'normalized_url')) as Array<{
      page_index: number;
      url: string;
      normalized_url: string | null;
    }>;
    for (const p of pageRows) pages.set(p.page_index, { url: p.url, normalizedUrl: p.normalized_url });
    const rows = (await this.db('scan_issues')
      .where({ scan_id: scanId })
      .select('id', 'fingerprint', 'rule', 'impact', 'kind', 'selector', 'page_index')) as Array<{
      id: number;
      fingerprint: string;
      rule: string;
      impact: Impact | null;
      kind: IssueKind;
      selector: string | null;
      page_index: number;
    }>;
    const unknownPage: GatePage = { url: '' };
    return rows.map((r) => ({
      ref: r.id,
      fingerprint: r.fingerprint,
      rule: r.rule,
      impact: r.impact,
      kind: r.kind,
      selector: r.selector,
      page: pages.get(r.page_index) ?? unknownPage,
    }));
  }

  /** The baseline scan's issues: fingerprint, impact and kind are all the comparison needs. */
  async baselineIssues(scanId: string): Promise<BaselineIssue[]> {
    return (await this.db('scan_issues')
      .where({ scan_id: scanId })
      .select('fingerprint', 'impact', 'kind')) as BaselineIssue[];
  }

  /** Everything a deploy event shows about the listed issues, by row id (order not kept). */
  async issueDetails(scanId: string, ids: number[]): Promise<Map<number, ScanDetailRow>> {
    const out = new Map<number, ScanDetailRow>();
    // Chunked: SQLite caps the number of bound variables per statement.
    for (let i = 0; i < ids.length; i += 500) {
      const rows = (await this.db('scan_issues as i')
        .join('scan_pages as p', function () {
          this.on('p.scan_id', '=', 'i.scan_id').andOn('p.page_index', '=', 'i.page_index');
        })
        .where('i.scan_id', scanId)
        .whereIn('i.id', ids.slice(i, i + 500))
        .select(
          'i.id',
          'i.rule',
          'i.impact',
          'i.kind',
          'i.message',
          'i.selector',
          'i.wcag',
          'i.help_url',
          'i.source_path',
          'i.source_line',
          'i.fingerprint',
          'p.url as page_url',
        )) as ScanDetailRow[];
      for (const r of rows) out.set(Number(r.id), { ...r, id: Number(r.id) });
    }
    return out;
  }
}
