import type { Knex } from 'knex';
import { readGateColumns } from '../scans/gate-columns.js';
import { sourceFromColumns } from '../scans/scans.js';
import type { IssueSource } from '../../../core/scans/imported-issue.js';
import type { GatePage } from '../../../core/gate/issues.js';
import { IssueColumns } from '../../../core/gate/issues.js';
import { type IssueKind } from '../../../core/impact.js';
import type { Impact } from '../../../core/impact.js';

/**
 * What the deploy gate reads of the two scans it compares (gate-scans.ts chooses them), from the scan
 * aggregate (tables of the scans feature, read only here).
 * Shaped for speed: a 50,000-issue scan is read with one query returning one row (fingerprints and a
 * code per issue); the matcher's details only for the issues it could not pair by fingerprint
 * (match-evidence.ts); the listed issues' details (message, wcag, source, …) last, for the few shown.
 */

export interface IssueDetail {
  id: number;
  rule: string;
  impact: Impact | null;
  kind: IssueKind;
  message: string | null;
  selector: string | null;
  wcag: string[];
  helpUrl: string | null;
  source: IssueSource | null;
  html: string | null;
  fingerprint: string;
  pageUrl: string;
  /** The page's viewport; null: the one default viewport. */
  viewport: string | null;
}

export interface GatePageRow extends GatePage {
  index: number;
  normalizedUrl: string;
  /** Null: the one default viewport. Pages pair across scans by normalised URL and viewport. */
  viewport: string | null;
}

/**
 * Every issue of a scan as columns (fingerprint, impact and kind, row id, page), from the values stored
 * when the scan completed (store/scans/gate-columns.ts): one row of three strings.
 */
export async function scanIssues(db: Knex, scanId: string): Promise<IssueColumns> {
  const text = await readGateColumns(db, scanId);
  const fingerprints = text.fingerprints === '' ? [] : text.fingerprints.split(',');
  const n = fingerprints.length;
  const refs = new Float64Array(n);
  const codes = new Uint8Array(n);
  const pages = new Int32Array(n);
  if (!numberList(text.codes, refs) || !numberList(text.pages, pages)) {
    throw new Error('gate evidence: issue lists do not line up');
  }
  for (let k = 0; k < n; k++) {
    const code = refs[k] % 16;
    codes[k] = code;
    refs[k] = (refs[k] - code) / 16;
  }
  return new IssueColumns(fingerprints, refs, codes, pages);
}

/**
 * Fills `out` from "12,7,40" (one non-negative integer per element, parsed without a string per
 * number); false when the count differs.
 */
function numberList(text: string, out: Float64Array | Int32Array): boolean {
  if (text === '') return out.length === 0;
  let k = 0;
  let n = 0;
  for (let i = 0; i <= text.length; i++) {
    const ch = i < text.length ? text.charCodeAt(i) : 44;
    if (ch !== 44) {
      n = n * 10 + ch - 48;
      continue;
    }
    if (k === out.length) return false;
    out[k++] = n;
    n = 0;
  }
  return k === out.length;
}

/** The scan's pages by index. */
export async function scanPages(db: Knex, scanId: string): Promise<Map<number, GatePageRow>> {
  const rows = await db('scan_pages')
    .where({ scan_id: scanId })
    .select<GatePageRow[]>('page_index as index', 'url', 'normalized_url as normalizedUrl', 'viewport');
  return new Map(rows.map((p) => [p.index, p]));
}

/**
 * Fills in rule, selector and page of the issues of the rules active waivers name (others keep an
 * empty rule, which no waiver has): only those can be waived.
 */
export async function addWaiverFields(
  db: Knex,
  scanId: string,
  issues: IssueColumns,
  rules: readonly string[],
  pages: ReadonlyMap<number, GatePageRow>,
): Promise<void> {
  if (rules.length === 0) return;
  const indexOf = new Map<number, number>();
  for (let i = 0; i < issues.length; i++) indexOf.set(issues.refs[i], i);
  for (let i = 0; i < rules.length; i += 500) {
    const rows = await db('scan_issues')
      .where({ scan_id: scanId })
      .whereIn('rule', rules.slice(i, i + 500))
      .select<Array<{ id: number | string; rule: string; selector: string | null; page_index: number }>>(
        'id',
        'rule',
        'selector',
        'page_index',
      );
    for (const r of rows) {
      const index = indexOf.get(Number(r.id));
      if (index === undefined) continue;
      issues.fields.set(index, {
        rule: r.rule,
        selector: r.selector,
        page: pages.get(r.page_index) ?? { url: '' },
      });
    }
  }
}

/** Everything a deploy event shows about the listed issues, by row id (order not kept). */
export async function issueDetails(
  db: Knex,
  scanId: string,
  ids: readonly number[],
): Promise<Map<number, IssueDetail>> {
  const out = new Map<number, IssueDetail>();
  // Chunked: SQLite caps the number of bound variables per statement.
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db('scan_issues as i')
      .join('scan_pages as p', function () {
        this.on('p.scan_id', '=', 'i.scan_id').andOn('p.page_index', '=', 'i.page_index');
      })
      // By primary key only: with `i.scan_id = ?` as well, SQLite may walk the scan's whole index.
      .whereIn('i.id', ids.slice(i, i + 500))
      .select<Array<Record<string, string | number | null>>>(
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
        'i.source_column',
        'i.source_method',
        'i.html',
        'i.fingerprint',
        'p.url as page_url',
        'p.viewport as page_viewport',
      );
    for (const r of rows) {
      if (r.scan_id !== scanId) continue;
      out.set(Number(r.id), {
        id: Number(r.id),
        rule: r.rule as string,
        impact: r.impact as Impact | null,
        kind: r.kind as IssueKind,
        message: r.message as string | null,
        selector: r.selector as string | null,
        wcag: r.wcag ? String(r.wcag).split(',').filter(Boolean) : [],
        helpUrl: r.help_url as string | null,
        source: sourceFromColumns(r as Parameters<typeof sourceFromColumns>[0]),
        html: r.html as string | null,
        fingerprint: r.fingerprint as string,
        pageUrl: r.page_url as string,
        viewport: (r.page_viewport as string | null) ?? null,
      });
    }
  }
  return out;
}
