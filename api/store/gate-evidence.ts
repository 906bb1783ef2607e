import type { Knex } from 'knex';
import { dialectOf } from './db.js';
import type { BaselineIssue, GatePage, HeadIssue, Impact, IssueKind, ScanRef } from '../domain/gate.js';

/**
 * What the deploy gate reads from the scan aggregate (tables of the scans feature, read only here).
 * The issue reads are shaped for speed: the 50,000-issue head and baseline are read with one plain
 * query each and only the columns the decision needs; the details (message, wcag, source, …) are
 * fetched afterwards for the few issues a deploy event lists.
 */

export interface ScanDetailRow {
  id: number;
  scan_id: string;
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

const SCAN_COLUMNS = ['id', 'sha', 'branch', 'created_at', 'fingerprint_version'] as const;

/** Impact and kind as one small integer: impact rank × 2 + (1 when incomplete). */
const CODE_SQL =
  "((case impact when 'critical' then 0 when 'serious' then 1 when 'moderate' then 2 " +
  "when 'minor' then 3 else 4 end) * 2 + (case when kind = 'incomplete' then 1 else 0 end))";
const IMPACT_OF_CODE: Array<Impact | null> = ['critical', 'serious', 'moderate', 'minor', null];

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
   * Every issue of a scan as two parallel arrays: fingerprints, and one number per issue holding
   * impact and kind (and, with `withIds`, the row id: id × 16 + code). The drivers' cost is per row and
   * column, so the database concatenates each column into one string and sends a single row; with the
   * (scan_id, fingerprint, impact, kind) index of migration 0002 this reads 50,000 issues faster than
   * plain rows of their fingerprints alone (see bench/suites/20-gate.ts). Both aggregates consume the
   * same rows in the same order (every input row goes through every aggregate of the query), so the
   * two lists line up. Fingerprints are hex: they hold no comma.
   */
  private async issueKeys(
    scanId: string,
    withIds: boolean,
  ): Promise<{ fingerprints: string[]; codes: number[] }> {
    const code = withIds ? `id * 16 + ${CODE_SQL}` : CODE_SQL;
    const concat = (expr: string) =>
      dialectOf(this.db) === 'postgres'
        ? `string_agg(cast(${expr} as text), ',')`
        : `group_concat(${expr}, ',')`;
    const row = (await this.db('scan_issues')
      .where({ scan_id: scanId })
      .first(this.db.raw(`${concat('fingerprint')} as f`), this.db.raw(`${concat(code)} as c`))) as
      { f: string | null; c: string | null } | undefined;
    if (!row?.f || !row.c) return { fingerprints: [], codes: [] };
    const fingerprints = row.f.split(',');
    const codes = parseNumberList(row.c);
    if (codes.length !== fingerprints.length) throw new Error('gate evidence: issue lists do not line up');
    return { fingerprints, codes };
  }

  /**
   * The head scan's issues for evaluation. Rule, selector and page only matter to waivers, so they
   * are read only for the rules that active waivers name (other issues get an empty rule, which no
   * waiver has).
   */
  async headIssues(scanId: string, waiverRules: readonly string[]): Promise<HeadIssue[]> {
    const { fingerprints, codes } = await this.issueKeys(scanId, true);
    const noPage: GatePage = { url: '' };
    const issues: HeadIssue[] = new Array(fingerprints.length);
    for (let i = 0; i < fingerprints.length; i++) {
      const c = codes[i];
      const code = c % 16;
      issues[i] = {
        ref: (c - code) / 16,
        fingerprint: fingerprints[i],
        rule: '',
        impact: IMPACT_OF_CODE[code >> 1],
        kind: code & 1 ? 'incomplete' : 'violation',
        selector: null,
        page: noPage,
      };
    }
    if (waiverRules.length > 0) await this.addWaiverFields(scanId, issues, waiverRules);
    return issues;
  }

  private async addWaiverFields(
    scanId: string,
    issues: HeadIssue[],
    rules: readonly string[],
  ): Promise<void> {
    const byId = new Map<number, HeadIssue>();
    for (const issue of issues) byId.set(issue.ref as number, issue);
    const pages = new Map<number, GatePage>();
    const pageRows = (await this.db('scan_pages')
      .where({ scan_id: scanId })
      .select('page_index', 'url', 'normalized_url')) as Array<{
      page_index: number;
      url: string;
      normalized_url: string | null;
    }>;
    for (const p of pageRows) pages.set(p.page_index, { url: p.url, normalizedUrl: p.normalized_url });
    const noPage: GatePage = { url: '' };
    for (let i = 0; i < rules.length; i += 500) {
      const rows = (await this.db('scan_issues')
        .where({ scan_id: scanId })
        .whereIn('rule', rules.slice(i, i + 500))
        .select('id', 'rule', 'selector', 'page_index')) as Array<{
        id: number | string;
        rule: string;
        selector: string | null;
        page_index: number;
      }>;
      for (const r of rows) {
        const issue = byId.get(Number(r.id));
        if (!issue) continue;
        issue.rule = r.rule;
        issue.selector = r.selector;
        issue.page = pages.get(r.page_index) ?? noPage;
      }
    }
  }

  /** The baseline scan's issues: fingerprint, impact and kind are all the comparison needs. */
  async baselineIssues(scanId: string): Promise<BaselineIssue[]> {
    const { fingerprints, codes } = await this.issueKeys(scanId, false);
    const issues: BaselineIssue[] = new Array(fingerprints.length);
    for (let i = 0; i < fingerprints.length; i++) {
      const c = codes[i];
      issues[i] = {
        fingerprint: fingerprints[i],
        impact: IMPACT_OF_CODE[c >> 1],
        kind: c & 1 ? 'incomplete' : 'violation',
      };
    }
    return issues;
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
        // By primary key only: with `i.scan_id = ?` as well, SQLite may walk the scan's whole index.
        .whereIn('i.id', ids.slice(i, i + 500))
        .select(
          'i.id',
          'i.scan_id',
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
      for (const r of rows) if (r.scan_id === scanId) out.set(Number(r.id), { ...r, id: Number(r.id) });
    }
    return out;
  }
}

/** "12,7,40" → [12, 7, 40] without a string per number. */
function parseNumberList(text: string): number[] {
  const out: number[] = [];
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 44) {
      out.push(n);
      n = 0;
    } else {
      n = n * 10 + ch - 48;
    }
  }
  out.push(n);
  return out;
}
