import type { Knex } from 'knex';

/**
 * Keys, idempotency records, rate-limit windows, the event outbox, and the scan aggregate (sites,
 * scans, pages, issues) that every later feature reads. Times are RFC 3339 UTC strings with
 * milliseconds, which sort correctly as text on both SQLite and PostgreSQL.
 */
export async function up(knex: Knex): Promise<void> {
  await keysAndRequests(knex);
  await outbox(knex);
  await sitesAndScans(knex);
  await scanContents(knex);
}

/** API keys, and the per-request bookkeeping: idempotency records and rate-limit windows. */
async function keysAndRequests(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('name', 200).notNullable();
    t.string('public_id', 40).notNullable().unique();
    t.string('secret_hash', 64).notNullable();
    t.text('scopes').notNullable();
    t.string('created_at', 30).notNullable();
    t.string('expires_at', 30);
    t.string('revoked_at', 30);
    t.string('last_used_at', 30);
    t.index(['org']);
  });

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.string('principal', 40).notNullable();
    t.string('idempotency_key', 255).notNullable();
    t.string('request_hash', 64).notNullable();
    t.string('state', 16).notNullable();
    t.integer('response_status');
    t.text('response_headers');
    t.text('response_body');
    t.string('created_at', 30).notNullable();
    t.string('locked_until', 30);
    t.primary(['principal', 'idempotency_key']);
    t.index(['created_at']);
  });

  await knex.schema.createTable('rate_limits', (t) => {
    t.string('bucket', 120).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('count').notNullable();
    t.primary(['bucket', 'window_start']);
    t.index(['window_start']);
  });
}

/** The event outbox the webhook deliveries are made from. */
async function outbox(knex: Knex): Promise<void> {
  await knex.schema.createTable('outbox_messages', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('type', 60).notNullable();
    t.text('payload').notNullable();
    t.string('created_at', 30).notNullable();
    t.index(['org', 'created_at']);
  });
}

/** Sites and their scans. */
async function sitesAndScans(knex: Knex): Promise<void> {
  await knex.schema.createTable('sites', (t) => {
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.string('name', 200);
    t.text('url');
    t.string('repository', 200);
    t.string('base_branch', 255).notNullable().defaultTo('main');
    t.text('gate');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.primary(['org', 'site_id']);
  });

  await knex.schema.createTable('scans', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('site_id', 100).notNullable();
    t.text('url').notNullable();
    t.string('sha', 64);
    t.string('branch', 255);
    t.string('engine_name', 100);
    t.string('engine_version', 100);
    t.integer('run_attempt');
    t.integer('page_count').notNullable();
    t.integer('issue_count').notNullable();
    t.text('summary').notNullable();
    t.text('warnings').notNullable();
    t.integer('fingerprint_version').notNullable();
    // JSON array of the rule ids that ran (null = unknown): lets a VPAT tell "passed" from "not tested".
    t.text('rules_run');
    t.string('created_at', 30).notNullable();
    t.index(['org', 'site_id', 'sha', 'created_at']);
    t.index(['org', 'site_id', 'branch', 'created_at']);
    t.index(['org', 'created_at']);
    // `GET /api/v1/scans?sha=` without a site: "which scans exist for this commit?"
    t.index(['org', 'sha', 'created_at']);
  });
}

/** A scan's pages and issues. */
async function scanContents(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_pages', (t) => {
    t.string('scan_id', 40).notNullable().references('scans.id').onDelete('CASCADE');
    t.integer('page_index').notNullable();
    t.text('url').notNullable();
    t.text('normalized_url').notNullable();
    t.text('title');
    t.text('final_url');
    t.integer('http_status');
    t.integer('issue_count').notNullable();
    // JSON array of the rule ids that ran on this page, or NULL when unknown (the VPAT's per-page evidence).
    t.text('rules_run');
    t.primary(['scan_id', 'page_index']);
  });

  await knex.schema.createTable('scan_issues', (t) => {
    t.bigIncrements('id').primary();
    t.string('scan_id', 40).notNullable().references('scans.id').onDelete('CASCADE');
    t.integer('page_index').notNullable();
    t.string('rule', 200).notNullable();
    t.string('impact', 16);
    t.string('kind', 16).notNullable();
    t.text('message');
    t.text('selector');
    t.text('html');
    // Comma-separated criterion ids ("1.4.3,1.1.1"): one column keeps ingest to one insert per row.
    t.string('wcag', 255);
    t.text('help_url');
    t.text('source_path');
    t.integer('source_line');
    t.string('fingerprint', 64).notNullable();
    t.index(['scan_id', 'page_index']);
    t.index(['scan_id', 'fingerprint']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'scan_issues',
    'scan_pages',
    'scans',
    'sites',
    'outbox_messages',
    'rate_limits',
    'idempotency_keys',
    'api_keys',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
