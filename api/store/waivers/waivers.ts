import type { Knex } from 'knex';
import { isNulFree } from '../../../core/text/truncation.js';
import type { WaiverRule } from '../../../core/waivers/match.js';
import type { WaiverReasonCategory } from '../../domain/waivers/reason-category.js';
import { newestFirst } from '../keyset.js';

/** A waiver as stored: the gate's rule plus who made it, for which site, why and who revoked it. */
export interface WaiverRecord extends WaiverRule {
  org: string;
  siteId: string;
  reason: string | null;
  reasonCategory: WaiverReasonCategory;
  createdBy: string | null;
  revokedBy: string | null;
}

interface Row {
  id: string;
  org: string;
  site_id: string;
  rule: string;
  selector: string | null;
  url_pattern: string | null;
  fingerprint: string | null;
  reason: string | null;
  reason_category: string;
  expires_at: string | null;
  created_at: string;
  created_by: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}

const COLUMNS = [
  'id',
  'org',
  'site_id',
  'rule',
  'selector',
  'url_pattern',
  'fingerprint',
  'reason',
  'reason_category',
  'expires_at',
  'created_at',
  'created_by',
  'revoked_at',
  'revoked_by',
] as const;

function fromRow(r: Row): WaiverRecord {
  return {
    id: r.id,
    org: r.org,
    siteId: r.site_id,
    rule: r.rule,
    selector: r.selector,
    urlPattern: r.url_pattern,
    fingerprint: r.fingerprint,
    reason: r.reason,
    reasonCategory: r.reason_category as WaiverReasonCategory,
    expiresAt: r.expires_at,
    createdAt: r.created_at,
    createdBy: r.created_by,
    revokedAt: r.revoked_at,
    revokedBy: r.revoked_by,
  };
}

function toRow(w: WaiverRecord): Row {
  return {
    id: w.id,
    org: w.org,
    site_id: w.siteId,
    rule: w.rule,
    selector: w.selector,
    url_pattern: w.urlPattern,
    fingerprint: w.fingerprint,
    reason: w.reason,
    reason_category: w.reasonCategory,
    expires_at: w.expiresAt,
    created_at: w.createdAt,
    created_by: w.createdBy,
    revoked_at: w.revokedAt,
    revoked_by: w.revokedBy,
  };
}

export interface WaiverFilter {
  siteId?: string;
  /** true: not revoked and not expired at `now`; false: revoked or expired. */
  active?: boolean;
  now: string;
}

// Waivers: every read and write is scoped to an org. Rows are never deleted (revoke keeps them).

export async function insertWaiver(db: Knex | Knex.Transaction, w: WaiverRecord): Promise<void> {
  await db('waivers').insert({ ...toRow(w), expired_event_at: null });
}

export async function findWaiver(
  db: Knex | Knex.Transaction,
  org: string,
  id: string,
): Promise<WaiverRecord | undefined> {
  // No id holds U+0000, and PostgreSQL refuses it in a query (an error, not "no row").
  if (!isNulFree(id)) return undefined;
  const row = await db('waivers')
    .where({ org, id })
    .first<Row | undefined>(...COLUMNS);
  return row ? fromRow(row) : undefined;
}

/** Keyset page ordered by (createdAt, id) descending. */
export async function selectWaivers(
  db: Knex | Knex.Transaction,
  org: string,
  filter: WaiverFilter,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<WaiverRecord[]> {
  const q = db('waivers')
    .where({ org })
    .select(...COLUMNS);
  if (filter.siteId) q.andWhere('site_id', filter.siteId);
  if (filter.active === true) {
    q.whereNull('revoked_at').andWhere((w) => {
      w.whereNull('expires_at').orWhere('expires_at', '>', filter.now);
    });
  } else if (filter.active === false) {
    q.andWhere((w) => {
      w.whereNotNull('revoked_at').orWhere('expires_at', '<=', filter.now);
    });
  }
  newestFirst(q, 'created_at', limit, after && { at: after.createdAt, id: after.id });
  return ((await q) as Row[]).map(fromRow);
}

/** The site's waivers that are active at `now` (the matcher checks again; this only narrows the read). */
export async function activeWaiversForSite(
  db: Knex | Knex.Transaction,
  org: string,
  siteId: string,
  now: string,
): Promise<WaiverRecord[]> {
  const rows = await db('waivers')
    .where({ org, site_id: siteId })
    .whereNull('revoked_at')
    .andWhere((w) => {
      w.whereNull('expires_at').orWhere('expires_at', '>', now);
    })
    .select<Row[]>(...COLUMNS);
  return rows.map(fromRow);
}

/** Sets `revoked_at` unless already revoked; true when this call revoked it. */
export async function markWaiverRevoked(
  db: Knex | Knex.Transaction,
  org: string,
  id: string,
  at: string,
  by: string | null,
): Promise<boolean> {
  if (!isNulFree(id)) return false;
  const n = await db('waivers')
    .where({ org, id })
    .whereNull('revoked_at')
    .update({ revoked_at: at, revoked_by: by });
  return n === 1;
}
