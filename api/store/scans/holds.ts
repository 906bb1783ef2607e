import type { Knex } from 'knex';
import { dialectOf } from '../db.js';

/**
 * Inside a transaction that writes something using these scans (a deploy event as its head or baseline,
 * a report as its evidence): whether every one of them is still complete, holding them until the
 * transaction ends so that retention or a deletion cannot mark them `deleted` in between (PostgreSQL:
 * `FOR SHARE`, which their `FOR UPDATE` waits for; SQLite has one writer, so the transaction itself
 * keeps them out). A write whose scans are gone must not happen: it would use what is no longer there.
 */
export async function holdScans(trx: Knex.Transaction, ids: ReadonlyArray<string | null>): Promise<boolean> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return true;
  const q = trx('scans').whereIn('id', wanted).andWhere({ status: 'complete' }).select('id');
  if (dialectOf(trx) === 'postgres') q.forShare();
  return (await q).length === wanted.length;
}

/**
 * Locks these scans for a change of their status (PostgreSQL: `FOR UPDATE`): it waits for any
 * transaction holding them with holdScans, so a check made after it (in a new statement) sees what
 * that transaction wrote.
 */
export async function lockScansForStatus(trx: Knex.Transaction, ids: readonly string[]): Promise<void> {
  if (ids.length === 0 || dialectOf(trx) !== 'postgres') return;
  await trx('scans').whereIn('id', ids).forUpdate().select('id');
}
