import type { Knex } from 'knex';
import { dialectOf } from '../db.js';

/**
 * Deploy events (one row per gate decision, a record rather than a live view: the lists it showed
 * are stored as JSON) and waivers (never deleted: a revoke sets `revoked_at`; `expired_event_at` is
 * set once by the expiry sweep in store/waivers/expiry.ts).
 */
export async function up(knex: Knex): Promise<void> {
  // The gate reads every issue of two scans (fingerprint, impact, kind, id) in fingerprint order. The
  // scans feature's (scan_id, fingerprint) index is widened to cover those columns, so the read is an
  // index-only scan like reading the fingerprints alone; it still serves every query the narrow one
  // did, and ingest maintains the same number of indexes.
  await knex.raw('drop index if exists scan_issues_scan_id_fingerprint_index');
  if (dialectOf(knex) === 'postgres') {
    await knex.raw(
      'create index scan_issues_gate_read on scan_issues (scan_id, fingerprint) include (impact, kind, id)',
    );
  } else {
    // SQLite: every index carries the rowid, which `id` is.
    await knex.raw('create index scan_issues_gate_read on scan_issues (scan_id, fingerprint, impact, kind)');
  }

  await knex.schema.createTable('deploys', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('sha', 64).notNullable();
    t.string('ref', 255);
    // owner/name: the trigger's, else the site's; the check-run publisher posts there.
    t.string('repository', 200);
    // What the caller sent (validated), so a re-run can repeat it; and the thresholds after fallbacks.
    t.text('request').notNullable();
    t.text('settings').notNullable();
    t.boolean('passed').notNullable();
    t.text('reasons').notNullable();
    t.string('scan_id', 40);
    t.string('baseline_scan_id', 40);
    t.string('baseline_sha', 64);
    t.string('baseline_strategy', 20);
    t.text('baseline_reason');
    t.text('counts').notNullable();
    t.text('thresholds').notNullable();
    t.text('new_issues').notNullable();
    t.integer('new_issues_total').notNullable();
    t.text('waived_issues').notNullable();
    t.string('check_run_status', 16).notNullable();
    t.bigInteger('check_run_id');
    t.text('check_run_url');
    t.text('check_run_error');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['org', 'created_at']);
    t.index(['org', 'site_id', 'sha', 'created_at']);
    // Check runs left pending by a process that stopped are found and posted again.
    t.index(['check_run_status', 'updated_at']);
  });

  await knex.schema.createTable('waivers', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('rule', 200).notNullable();
    t.text('selector');
    t.text('url_pattern');
    t.string('fingerprint', 64);
    t.text('reason');
    // Required by the API; nullable here so rows written before that rule (or by tests) still load.
    t.string('expires_at', 30);
    t.string('created_at', 30).notNullable();
    // The API key that created it (key_…), for the audit trail.
    t.string('created_by', 40);
    t.string('revoked_at', 30);
    t.string('revoked_by', 40);
    t.string('expired_event_at', 30);
    t.index(['org', 'site_id', 'created_at']);
    t.index(['org', 'created_at']);
    // The expiry sweep: unrevoked, not yet announced, by expiry time.
    t.index(['expired_event_at', 'expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('waivers');
  await knex.schema.dropTableIfExists('deploys');
  await knex.raw('drop index if exists scan_issues_gate_read');
  await knex.schema.alterTable('scan_issues', (t) => t.index(['scan_id', 'fingerprint']));
}
