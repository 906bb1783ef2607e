import type { Knex } from 'knex';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type BeginResult =
  | { state: 'started' }
  | { state: 'replay'; response: StoredResponse }
  | { state: 'mismatch' }
  | { state: 'in_progress' };

/** How long a started request holds its key before a retry may take it over (crash recovery). */
const LOCK_MS = 5 * 60_000;
/** Replays are honoured for 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

export class IdempotencyRepository {
  constructor(private readonly db: Knex) {}

  async begin(principal: string, key: string, requestHash: string, now = new Date()): Promise<BeginResult> {
    const nowIso = now.toISOString();
    const lockedUntil = new Date(now.getTime() + LOCK_MS).toISOString();
    const inserted = (await this.db('idempotency_keys')
      .insert({
        principal,
        idempotency_key: key,
        request_hash: requestHash,
        state: 'started',
        created_at: nowIso,
        locked_until: lockedUntil,
      })
      .onConflict(['principal', 'idempotency_key'])
      .ignore()
      .returning('principal')) as unknown[];
    if (inserted.length > 0) return { state: 'started' };

    const row = await this.db('idempotency_keys').where({ principal, idempotency_key: key }).first();
    if (!row) return this.begin(principal, key, requestHash, now);
    const expired = Date.parse(row.created_at) + IDEMPOTENCY_TTL_MS < now.getTime();
    if (expired) {
      await this.db('idempotency_keys').where({ principal, idempotency_key: key }).delete();
      return this.begin(principal, key, requestHash, now);
    }
    if (row.request_hash !== requestHash) return { state: 'mismatch' };
    if (row.state === 'done') {
      return {
        state: 'replay',
        response: {
          status: row.response_status,
          headers: JSON.parse(row.response_headers ?? '{}'),
          body: row.response_body ?? '',
        },
      };
    }
    // A started request whose lock ran out belonged to a process that died: take it over.
    const taken = await this.db('idempotency_keys')
      .where({ principal, idempotency_key: key, state: 'started' })
      .andWhere('locked_until', '<', nowIso)
      .update({ locked_until: lockedUntil });
    return taken > 0 ? { state: 'started' } : { state: 'in_progress' };
  }

  async complete(principal: string, key: string, response: StoredResponse): Promise<void> {
    await this.db('idempotency_keys')
      .where({ principal, idempotency_key: key })
      .update({
        state: 'done',
        response_status: response.status,
        response_headers: JSON.stringify(response.headers),
        response_body: response.body,
        locked_until: null,
      });
  }

  /** The request failed: forget the key so a corrected retry can use it. */
  async release(principal: string, key: string): Promise<void> {
    await this.db('idempotency_keys').where({ principal, idempotency_key: key, state: 'started' }).delete();
  }

  async prune(now = new Date()): Promise<void> {
    await this.db('idempotency_keys')
      .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString())
      .delete();
  }
}
