import type { Harness } from './harness.js';

/**
 * How many fingerprints the deploy gate's stored columns hold for a scan (api/store/scans/gate-columns.ts),
 * or null when none are stored. On SQLite the table does not exist: the gate aggregates there.
 */
export async function storedGateFingerprints(h: Harness, scanId: string): Promise<number | null> {
  if (!(await h.db.schema.hasTable('scan_gate_columns'))) return null;
  const row = await h
    .db('scan_gate_columns')
    .where({ scan_id: scanId })
    .first<{ fingerprints: string } | undefined>('fingerprints');
  if (!row) return null;
  return row.fingerprints === '' ? 0 : row.fingerprints.split(',').length;
}
