import type { Knex } from 'knex';

/**
 * Deleting a scan a few thousand rows at a time, each batch its own short statement: a scan can hold
 * hundreds of thousands of issues, and one DELETE of them all would hold the database's write lock
 * (SQLite) or a long transaction (PostgreSQL) for seconds while requests wait.
 */
export const DELETE_BATCH = 5000;

export async function deleteScanRows(db: Knex, scanId: string, batch = DELETE_BATCH): Promise<void> {
  // Screenshots first, a few at a time: each row holds a picture, and they point at the issues.
  const shots = Math.max(1, Math.floor(batch / 100));
  for (;;) {
    const n = await db('scan_screenshots')
      .whereIn('id', db('scan_screenshots').where({ scan_id: scanId }).limit(shots).select('id'))
      .delete();
    if (n < shots) break;
  }
  for (;;) {
    const n = await db('scan_issues')
      .whereIn('id', db('scan_issues').where({ scan_id: scanId }).limit(batch).select('id'))
      .delete();
    if (n < batch) break;
  }
  for (;;) {
    const n = await db('scan_passes')
      .whereIn('id', db('scan_passes').where({ scan_id: scanId }).limit(batch).select('id'))
      .delete();
    if (n < batch) break;
  }
  for (;;) {
    const n = await db('scan_pages')
      .where({ scan_id: scanId })
      .whereIn('page_index', db('scan_pages').where({ scan_id: scanId }).limit(batch).select('page_index'))
      .delete();
    if (n < batch) break;
  }
  await db('scan_parts').where({ scan_id: scanId }).delete();
  await db('scan_shards').where({ scan_id: scanId }).delete();
  await db('scans').where({ id: scanId }).delete();
}
