import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';

// int8 (COUNT(*), bigIncrements) arrives as a string from pg; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface DbOptions {
  /** postgres://… for PostgreSQL; otherwise a SQLite file path (or sqlite:/file: URL). */
  url?: string;
  dataDir: string;
  /** PostgreSQL only: run in this schema (tests use one schema per suite). */
  schema?: string;
  /**
   * PostgreSQL: connections per process (default 10), a third of them for reads outside transactions.
   * SQLite: read connections beside the one writer (default 4; 0 = everything on the writer).
   */
  poolSize?: number;
}

export function isPostgresUrl(url: string | undefined): url is string {
  return Boolean(url && /^postgres(ql)?:\/\//.test(url));
}

/** True when a write failed on a unique key (another writer got there first), on SQLite and PostgreSQL alike. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(String(e?.message));
}

export function dialectOf(db: Knex): Dialect {
  // knex types its client as `any`; its config is the one createDb (or a test) passed in.
  const client = String((db.client as { config: Knex.Config }).config.client);
  return client === 'pg' ? 'postgres' : 'sqlite';
}

export function createDb(options: DbOptions): Knex {
  if (isPostgresUrl(options.url)) {
    const total = options.poolSize ?? 10;
    // A third of the connections serve reads outside transactions, so a read (a deploy event, a key
    // lookup) never waits for a connection held by a long write such as a 50,000-issue scan.
    const readers = Math.floor(total / 3);
    const writer = postgresKnex(options.url, options.schema, total - readers);
    return readers > 0 ? routeReads(writer, postgresKnex(options.url, options.schema, readers)) : writer;
  }
  const file = sqliteFile(options);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  ownerOnly(file);
  const writer = sqliteKnex(file, 1, false);
  const readers = options.poolSize ?? 4;
  return readers > 0 ? routeReads(writer, sqliteKnex(file, readers, true)) : writer;
}

/**
 * A PostgreSQL connection pool. `afterCreate` runs on each new connection (the rate-limit counters set
 * their session up with it).
 */
export function postgresKnex(
  url: string,
  schema: string | undefined,
  size: number,
  afterCreate?: (
    conn: { query(sql: string, cb: (err: Error | null) => void): void },
    done: (err: Error | null) => void,
  ) => void,
): Knex {
  return knexFactory({
    client: 'pg',
    connection: url,
    searchPath: schema ? [schema] : undefined,
    pool: { min: 0, max: size, ...(afterCreate ? { afterCreate } : {}) },
    acquireConnectionTimeout: 10_000,
  });
}

/**
 * One SQLite connection pool. The writer is a single connection: SQLite has one writer anyway, and
 * one connection makes knex queue transactions instead of failing them with SQLITE_BUSY. Readers are
 * `query_only`: in WAL mode they read the last committed state while the writer writes.
 */
function sqliteKnex(file: string, size: number, readOnly: boolean): Knex {
  return knexFactory({
    client: 'sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: readOnly ? 0 : 1,
      max: size,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        conn.serialize(() => {
          conn.run('PRAGMA journal_mode = WAL');
          conn.run('PRAGMA synchronous = NORMAL');
          conn.run('PRAGMA foreign_keys = ON');
          // The writer keeps temporary files in memory: a multi-row insert's statement journal (the
          // pages it changes, to undo that statement alone) is otherwise written to a file each batch.
          if (!readOnly) conn.run('PRAGMA temp_store = MEMORY');
          if (readOnly) conn.run('PRAGMA query_only = ON');
          conn.run('PRAGMA busy_timeout = 5000', (err) => done(err, conn));
        });
      },
    },
  });
}

/**
 * The file holds key hashes, sealed webhook secrets and every scan: it is created 0600 before SQLite
 * opens it (SQLite gives its -wal and -shm files the database file's mode), and a file left readable
 * by an older version is tightened.
 */
function ownerOnly(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    if (fs.existsSync(f)) fs.chmodSync(f, 0o600);
  }
}

interface RunnerLike {
  connection: unknown;
  ensureConnection(cb: (runner: RunnerLike, params: unknown) => unknown, params: unknown): Promise<unknown>;
}
interface BuilderLike {
  _method?: string;
  _connection?: unknown;
  sql?: string;
}

const READ_METHODS = new Set(['select', 'first', 'pluck']);

function isRead(builder: BuilderLike): boolean {
  if (builder._connection) return false;
  if (builder._method) return READ_METHODS.has(builder._method);
  // knex.raw: a plain SELECT (not SELECT … FOR UPDATE, which SQLite has not anyway).
  return typeof builder.sql === 'string' && /^\s*select\b/i.test(builder.sql);
}

/**
 * Reads outside a transaction go to the read pool, so a request that only reads (a deploy event,
 * a key lookup) never queues behind a long write such as a 50,000-issue scan. Everything else (writes,
 * every statement of a transaction, schema changes) stays on the writer. Transactions get their own
 * runner from knex's transaction client, which does not inherit this one.
 */
function routeReads(writer: Knex, reader: Knex): Knex {
  const client = writer.client as {
    runner(builder: BuilderLike): RunnerLike;
  };
  const makeRunner = client.runner.bind(client);
  const readerClient = reader.client as {
    acquireConnection(): Promise<unknown>;
    releaseConnection(conn: unknown): Promise<unknown>;
  };
  client.runner = (builder: BuilderLike) => {
    const runner = makeRunner(builder);
    if (!isRead(builder)) return runner;
    runner.ensureConnection = async (cb, params) => {
      const conn = await readerClient.acquireConnection();
      try {
        runner.connection = conn;
        return await cb(runner, params);
      } finally {
        await readerClient.releaseConnection(conn);
      }
    };
    return runner;
  };
  // knex.destroy() ends in its client's destroy: the read pool closes with the writer.
  const writerClient = writer.client as { destroy(cb?: unknown): Promise<unknown> };
  const destroy = writerClient.destroy.bind(writerClient);
  writerClient.destroy = async (cb?: unknown) => {
    await reader.destroy();
    return destroy(cb);
  };
  return writer;
}

interface SqliteConnection {
  serialize(fn: () => void): void;
  run(sql: string, cb?: (err: Error | null) => void): void;
}

function sqliteFile(options: DbOptions): string {
  const url = options.url;
  if (!url) return path.join(options.dataDir, 'a11y-gate.sqlite');
  return url.replace(/^sqlite:(\/\/)?/, '').replace(/^file:(\/\/)?/, '');
}

/**
 * Rows inserted in one statement with one parameter: the rows as one JSON array, unpacked by the database
 * (SQLite's `json_each`, PostgreSQL's `json_populate_recordset`). Binding one value instead of one per
 * column and row makes a large insert cheap for the process (an imported assessment's thousands of
 * results and their history); every row has the columns of the first.
 */
export async function insertJsonRows(
  trx: Knex | Knex.Transaction,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  const list = columns.map((c) => `"${c}"`).join(', ');
  const sql =
    dialectOf(trx) === 'postgres'
      ? `insert into "${table}" (${list}) select ${list} from json_populate_recordset(null::"${table}", ?::json)`
      : `insert into "${table}" (${list}) select ${columns.map((c) => `json_extract(value, '$.${c}')`).join(', ')} from json_each(?)`;
  await trx.raw(sql, [JSON.stringify(rows)]);
}

/** SQLite rejects one INSERT with more than 500 rows of VALUES; chunk every batch at this size. */
export const MAX_ROWS_PER_INSERT = 500;

export async function insertInChunks(
  trx: Knex | Knex.Transaction,
  table: string,
  rows: Record<string, unknown>[],
  chunkSize = MAX_ROWS_PER_INSERT,
): Promise<void> {
  if (rows.length === 0) return;
  // SQLite also caps bound variables (32,766 on current builds): keep rows × columns under it.
  const columns = Object.keys(rows[0]).length || 1;
  const size = Math.max(1, Math.min(chunkSize, Math.floor(32_000 / columns)));
  for (let i = 0; i < rows.length; i += size) {
    await trx(table).insert(rows.slice(i, i + size));
  }
}
