import type { Knex } from 'knex';
import { dialectOf } from '../db.js';

/**
 * PostgreSQL only: the deploy gate's read of a scan, written once when the scan completes
 * (store/scans/gate-columns.ts says why, and why not on SQLite). Stored uncompressed: hexadecimal
 * fingerprints hardly compress, and compressing them on every completion cost more than building the
 * value (bench/README.md). Removed with its scan (the foreign key cascades). Scans completed before this
 * migration have no row and are read as before.
 */
export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'postgres') return;
  await knex.schema.createTable('scan_gate_columns', (t) => {
    t.string('scan_id', 40).primary().references('id').inTable('scans').onDelete('CASCADE');
    t.text('fingerprints').notNullable();
    t.text('codes').notNullable();
    t.text('pages').notNullable();
  });
  await knex.raw(
    'alter table scan_gate_columns alter column fingerprints set storage external, ' +
      'alter column codes set storage external, alter column pages set storage external',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('scan_gate_columns');
}
