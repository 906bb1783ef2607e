import type { Knex } from 'knex';
import { isNulFree } from '../domain/text-truncation.js';

export interface WaiverRecord {
  id: string;
  org: string;
  site_id: string;
  rule: string;
  selector: string | null;
  url_pattern: string | null;
  fingerprint: string | null;
  reason: string | null;
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
  'expires_at',
  'created_at',
  'created_by',
  'revoked_at',
  'revoked_by',
] as const;

export interface WaiverFilter {
  siteId?: string;
  /** true: not revoked and not expired at `now`; false: revoked or expired. */
  active?: boolean;
  now: string;
}

/** Waivers; every read and write is scoped to an org. Rows are never deleted (revoke keeps them). */
export class WaiverRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  with(trx: Knex.Transaction): WaiverRepository {
    return new WaiverRepository(trx);
  }

  async insert(w: WaiverRecord): Promise<void> {
    await this.db('waivers').insert({ ...w, expired_event_at: null });
  }

  async find(org: string, id: string): Promise<WaiverRecord | undefined> {
    // No id holds U+0000, and PostgreSQL refuses it in a query (an error, not "no row").
    if (!isNulFree(id)) return undefined;
    return (await this.db('waivers')
      .where({ org, id })
      .first(...COLUMNS)) as WaiverRecord | undefined;
  }

  /** Keyset page ordered by (created_at, id) descending. */
  async list(
    org: string,
    filter: WaiverFilter,
    limit: number,
    after?: { createdAt: string; id: string },
  ): Promise<WaiverRecord[]> {
    const q = this.db('waivers')
      .where({ org })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)
      .select(...COLUMNS);
    if (filter.siteId) q.andWhere('site_id', filter.siteId);
    if (filter.active === true) {
      q.whereNull('revoked_at').andWhere((w) =>
        w.whereNull('expires_at').orWhere('expires_at', '>', filter.now),
      );
    } else if (filter.active === false) {
      q.andWhere((w) => w.whereNotNull('revoked_at').orWhere('expires_at', '<=', filter.now));
    }
    if (after) {
      q.andWhere((w) =>
        w
          .where('created_at', '<', after.createdAt)
          .orWhere((x) => x.where('created_at', after.createdAt).andWhere('id', '<', after.id)),
      );
    }
    return (await q) as WaiverRecord[];
  }

  /** The site's waivers that are active at `now` (the matcher checks again; this only narrows the read). */
  async activeForSite(org: string, siteId: string, now: string): Promise<WaiverRecord[]> {
    return (await this.db('waivers')
      .where({ org, site_id: siteId })
      .whereNull('revoked_at')
      .andWhere((w) => w.whereNull('expires_at').orWhere('expires_at', '>', now))
      .select(...COLUMNS)) as WaiverRecord[];
  }

  /** Sets `revoked_at` unless already revoked; true when this call revoked it. */
  async revoke(org: string, id: string, at: string, by: string | null): Promise<boolean> {
    if (!isNulFree(id)) return false;
    const n = await this.db('waivers')
      .where({ org, id })
      .whereNull('revoked_at')
      .update({ revoked_at: at, revoked_by: by });
    return n === 1;
  }
}
