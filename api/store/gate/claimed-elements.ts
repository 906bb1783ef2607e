import type { Knex } from 'knex';
import type { Claim } from '../../../core/claims/deploy-claims.js';

/**
 * What the gate reads to answer claimed fixes (services/gate/claims.ts): the claimed issues of the
 * baseline with every issue of their rules on their pages, and the head scan's issues and passing elements
 * of those rules on the same pages (passing elements: store/scans/passes.ts). A few rows: a change claims a handful of fixes.
 */

export interface ElementRow {
  pageIndex: number;
  fingerprint: string;
  rule: string;
  selector: string | null;
  html: string | null;
}

const COLUMNS = ['page_index as pageIndex', 'fingerprint', 'rule', 'selector', 'html'];

/** The baseline's issues with the claimed fingerprints (only their pages and rules are read further). */
export async function claimedIssues(
  db: Knex,
  scanId: string,
  fingerprints: readonly string[],
): Promise<ElementRow[]> {
  if (fingerprints.length === 0) return [];
  return db('scan_issues')
    .where({ scan_id: scanId })
    .whereIn('fingerprint', fingerprints)
    .orderBy('id')
    .select<ElementRow[]>(COLUMNS);
}

/** A scan's issues of `rules` on the pages at `pageIndexes`. */
export async function issuesOn(
  db: Knex,
  scanId: string,
  pageIndexes: readonly number[],
  rules: readonly string[],
): Promise<ElementRow[]> {
  if (pageIndexes.length === 0 || rules.length === 0) return [];
  return db('scan_issues')
    .where({ scan_id: scanId })
    .whereIn('page_index', pageIndexes)
    .whereIn('rule', rules)
    .orderBy('id')
    .select<ElementRow[]>(COLUMNS);
}

/** The claims a scan body named (migration 0031), or none. */
export async function scanClaims(db: Knex, scanId: string): Promise<Claim[]> {
  const row = await db('scans').where({ id: scanId }).first<{ claims: string | null } | undefined>('claims');
  return row?.claims ? (JSON.parse(row.claims) as Claim[]) : [];
}
