import type { Knex } from 'knex';
import type { Scope } from '../domain/api-key.js';

export interface ApiKeyRecord {
  id: string;
  org: string;
  name: string;
  publicId: string;
  secretHash: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

interface Row {
  id: string;
  org: string;
  name: string;
  public_id: string;
  secret_hash: string;
  scopes: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

function fromRow(r: Row): ApiKeyRecord {
  return {
    id: r.id,
    org: r.org,
    name: r.name,
    publicId: r.public_id,
    secretHash: r.secret_hash,
    scopes: JSON.parse(r.scopes) as Scope[],
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  };
}

export class KeyRepository {
  constructor(private readonly db: Knex) {}

  async insert(k: ApiKeyRecord): Promise<void> {
    await this.db<Row>('api_keys').insert({
      id: k.id,
      org: k.org,
      name: k.name,
      public_id: k.publicId,
      secret_hash: k.secretHash,
      scopes: JSON.stringify(k.scopes),
      created_at: k.createdAt,
      expires_at: k.expiresAt,
      revoked_at: k.revokedAt,
      last_used_at: k.lastUsedAt,
    });
  }

  async findByPublicId(publicId: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db<Row>('api_keys').where({ public_id: publicId }).first();
    return row ? fromRow(row) : undefined;
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db<Row>('api_keys').where({ id }).first();
    return row ? fromRow(row) : undefined;
  }

  /** Keyset page ordered by (created_at, id) descending. */
  async list(limit: number, after?: { createdAt: string; id: string }): Promise<ApiKeyRecord[]> {
    const q = this.db<Row>('api_keys').orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
    if (after) {
      q.where((w) =>
        w
          .where('created_at', '<', after.createdAt)
          .orWhere((x) => x.where('created_at', '=', after.createdAt).andWhere('id', '<', after.id)),
      );
    }
    return (await q.limit(limit)).map(fromRow);
  }

  /** Returns false when the key does not exist or was already revoked. */
  async revoke(id: string, at: string): Promise<boolean> {
    const n = await this.db<Row>('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: at });
    return n > 0;
  }

  /** Writes last_used_at at most once a minute per key (the condition makes it a no-op otherwise). */
  async touch(id: string, at: string, previous: string | null): Promise<void> {
    const cutoff = new Date(Date.parse(at) - 60_000).toISOString();
    if (previous && previous > cutoff) return;
    await this.db<Row>('api_keys')
      .where({ id })
      .andWhere((w) => w.whereNull('last_used_at').orWhere('last_used_at', '<=', cutoff))
      .update({ last_used_at: at });
  }
}
