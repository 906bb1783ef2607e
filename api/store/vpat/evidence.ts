import type { Knex } from 'knex';
import type { EvidenceGroup, ScanEvidence } from '../../domain/vpat/evidence-tally.js';
import { findScan, latestScanOnBranch, type ScanRecord } from '../scans/scans.js';
import { getSite } from '../sites/sites.js';
import { compileWaivers } from '../../domain/waivers/match.js';
import { scanWaiverLookup } from '../../domain/waivers/scan-waivers.js';
import { readIssueFacts, type IssueFact } from '../scans/issue-cursor.js';
import { activeWaiversForSite } from '../waivers/waivers.js';

/**
 * What a VPAT reads from the scan aggregate: one scan (through the scan store), its pages, and its
 * issues through the scan's issue cursor, counted by (rule, kind, wcag, page) and by the site's active
 * waivers (waived violations still count).
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

/** Issues read per turn: each batch is one short query and one short fold, whatever the scan's size. */
const BATCH = 2000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const groupKey = (i: IssueFact) => `${i.rule}\u0000${i.kind}\u0000${i.wcag ?? ''}\u0000${i.pageIndex}`;

/**
 * Everything the derivation needs about one scan. Its issues are read through the scan's issue cursor
 * a batch at a time and folded into (rule, kind, criteria, page) groups, with a turn for other requests
 * between batches. Each violation is matched against the site's active waivers as it passes (the scan
 * view's matcher: waived violations still count). Help URLs of the rules axe-core knows come from the
 * installed package (`knownHelp`); the scan's stored ones are kept only for other rules.
 */
export async function readEvidence(
  db: Knex,
  scan: EvidenceScan,
  now: string,
  knownHelp: ReadonlySet<string> = new Set(),
): Promise<ScanEvidence> {
  const pages = await evidencePages(db, scan.id);
  const matcher = compileWaivers(await activeWaiversForSite(db, scan.org, scan.siteId, now), now);
  const waiverOf = scanWaiverLookup(matcher, pages);
  const groups = new Map<string, EvidenceGroup>();
  const storedHelp = new Map<string, string>();
  for (let after = 0; ;) {
    const batch = await readIssueFacts(
      db,
      scan.id,
      { order: 'submission', after, limit: BATCH },
      matcher.size > 0,
    );
    for (const i of batch) {
      const key = groupKey(i);
      let g = groups.get(key);
      if (!g) {
        g = {
          rule: i.rule,
          kind: i.kind,
          wcag: i.wcag,
          page: i.pageIndex,
          count: 0,
          helpUrl: null,
          waived: 0,
        };
        groups.set(key, g);
      }
      g.count++;
      if (i.kind === 'violation' && waiverOf(i)) g.waived = (g.waived ?? 0) + 1;
      if (i.helpUrl && !knownHelp.has(i.rule) && i.helpUrl > (storedHelp.get(i.rule) ?? '')) {
        storedHelp.set(i.rule, i.helpUrl);
      }
    }
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1].id;
    await nextTurn();
  }
  const all = [...groups.values()];
  for (const g of all) g.helpUrl = storedHelp.get(g.rule) ?? null;
  return {
    pages: pages.map((p) => ({
      index: p.index,
      url: p.url,
      rulesRun: p.rulesRun,
      rulesInapplicable: p.rulesInapplicable,
    })),
    rulesRun: scan.rulesRun,
    groups: all,
    waiversKnown: true,
  };
}
