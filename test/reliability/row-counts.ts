import type { Knex } from 'knex';

// Counters and caches that legitimately change on a rejected request.
const IGNORED = new Set(['rate_limits']);
const cache = new WeakMap<Knex, string[]>();

async function tablesOf(db: Knex): Promise<string[]> {
  const cached = cache.get(db);
  if (cached) return cached;
  // Knex types its client as any: only the configured driver's name is read.
  const client = String((db.client as { config: { client: unknown } }).config.client);
  const rows: Array<{ name: string }> =
    client === 'pg'
      ? (
          await db.raw<{ rows: Array<{ name: string }> }>(
            "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
          )
        ).rows
      : await db.raw<Array<{ name: string }>>(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'",
        );
  const tables = rows
    .map((r) => r.name)
    .filter((n) => !IGNORED.has(n) && !n.startsWith('knex_'))
    .sort();
  cache.set(db, tables);
  return tables;
}

/** Row count of every table (one query), to prove that a rejected request stored nothing. */
export async function rowCounts(db: Knex): Promise<Record<string, number>> {
  const tables = await tablesOf(db);
  const sql = tables.map((t) => `select '${t}' as t, count(*) as c from "${t}"`).join(' union all ');
  // SQLite answers the rows, PostgreSQL a result that holds them.
  type CountRow = { t: string; c: number | string };
  const result = await db.raw<CountRow[] | { rows: CountRow[] }>(sql);
  const rows: CountRow[] = Array.isArray(result) ? result : result.rows;
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.c)]));
}
