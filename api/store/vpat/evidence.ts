import type { ReportSource } from '../../domain/vpat/compose.js';
import type { Knex } from 'knex';
import type { ScanEvidence } from '../../domain/vpat/evidence-tally.js';
import { findScan, latestFullScanOnBranch, type ScanRecord } from '../scans/scans.js';
import { getSite } from '../sites/sites.js';
import { scanPageRows } from '../scans/page-rows.js';
import { normalizeUrl } from '../../../core/url-normalisation.js';

/**
 * What a VPAT reads from the scan aggregate: one scan (through the scan store) and its pages; its
 * issues are counted by (rule, kind, wcag, page) in ./evidence-groups.ts.
 */

/** A report's scan, with what the store needs to read its evidence. */
export interface EvidenceScan extends ReportSource {
  org: string;
  /** The fingerprint version the scan's issues were fingerprinted with. */
  fingerprintVersion: number;
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
  /** The normalised URL by the current rule (a page stored before the index-file rule gets its folder's). */
  address: string;
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

/** The latest full scan on the branch: a report's, an assessment's and a refresh's default evidence. */
export async function latestEvidenceScan(
  db: Knex,
  org: string,
  siteId: string,
  branch: string,
): Promise<EvidenceScan | undefined> {
  const scan = await latestFullScanOnBranch(db, org, siteId, branch);
  return scan ? toEvidenceScan(scan) : undefined;
}

interface PageRow {
  page_index: number;
  url: string;
  normalized_url: string;
  rules_run: string | null;
  rules_inapplicable: string | null;
}

/** The scan's pages, each with the rules that ran on it (null: the page did not say). */
export async function evidencePages(db: Knex, scanId: string): Promise<EvidencePageRow[]> {
  // Native pages share the body's list, and axe pages of one site mostly ran the same rules: parse each
  // distinct list once (the derivation only reads them).
  const parsed = new Map<string, string[]>();
  const list = (text: string) => {
    let ids = parsed.get(text);
    if (!ids) parsed.set(text, (ids = JSON.parse(text) as string[]));
    return ids;
  };
  const pages: EvidencePageRow[] = [];
  const columns = ['page_index', 'url', 'normalized_url', 'rules_run', 'rules_inapplicable'];
  for await (const rows of scanPageRows<PageRow>(db, scanId, columns)) {
    for (const r of rows) {
      pages.push({
        index: Number(r.page_index),
        url: r.url,
        normalizedUrl: r.normalized_url,
        address: normalizeUrl(r.normalized_url) ?? r.normalized_url,
        rulesRun: r.rules_run === null ? null : list(r.rules_run),
        rulesInapplicable: r.rules_inapplicable === null ? null : list(r.rules_inapplicable),
      });
    }
  }
  return pages;
}

/**
 * Everything the derivation needs about one scan but its issue groups, which the caller folds a page
 * range at a time from `evidenceGroups` (./evidence-groups.ts): the scan's pages (with the URLs waivers
 * match) and the rules it says ran.
 */
export async function readEvidence(
  db: Knex,
  scan: EvidenceScan,
): Promise<{ evidence: ScanEvidence; pages: EvidencePageRow[] }> {
  const pages = await evidencePages(db, scan.id);
  return {
    pages,
    evidence: {
      pages: pages.map((p) => ({
        index: p.index,
        url: p.url,
        address: p.address,
        rulesRun: p.rulesRun,
        rulesInapplicable: p.rulesInapplicable,
      })),
      rulesRun: scan.rulesRun,
      groups: [],
      waiversKnown: true,
    },
  };
}
