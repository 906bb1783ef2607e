import type { Knex } from 'knex';
import { dialectOf } from '../db.js';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_deploys_waivers.js';
import * as m0003 from './0003_vpat.js';
import * as m0004 from './0004_webhooks.js';
import * as m0006 from './0006_issue_matching.js';
import * as m0007 from './0007_vpat_versions.js';
import * as m0008 from './0008_tenancy.js';
import * as m0009 from './0009_scan_parts.js';
import * as m0010 from './0010_console.js';
import * as m0010b from './0010b_scan_issue_rules.js';
import * as m0012 from './0012_retention.js';
import * as m0013 from './0013_scan_gate_columns.js';
import * as m0014 from './0014_source_location.js';
import * as m0015 from './0015_assessments.js';
import * as m0019 from './0019_element_screenshots.js';
import * as m0017 from './0017_engine_upgrade.js';
import * as m0016 from './0016_scan_shards.js';
import * as m0021 from './0021_github_sign_in.js';
import * as m0018 from './0018_pr_comments.js';
import * as m0023 from './0023_inapplicable_rules.js';
import * as m0024 from './0024_scan_issue_order.js';
import * as m0025 from './0025_github_deliveries.js';
import * as m0026 from './0026_scan_scope.js';
import * as m0027 from './0027_page_viewport.js';
import * as m0028 from './0028_statements.js';
import * as m0029 from './0029_history.js';
import * as m0030 from './0030_deadlines.js';
import * as m0031 from './0031_claims.js';
import * as m0032 from './0032_portfolio.js';
import * as m0033 from './0033_served_folder.js';
import * as m0034 from './0034_history_queue.js';
import * as m0035 from './0035_history_totals.js';

/**
 * Every schema change is a migration, listed here in order. A static list (instead of knex reading a
 * folder) works the same under tsx, ts-jest and any bundler.
 */
const migrations: Record<string, Knex.Migration> = {
  '0001_foundation': m0001,
  '0002_deploys_waivers': m0002,
  '0003_vpat': m0003,
  '0004_webhooks': m0004,
  '0006_issue_matching': m0006,
  '0007_vpat_versions': m0007,
  '0008_tenancy': m0008,
  '0009_scan_parts': m0009,
  '0010_console': m0010,
  '0010b_scan_issue_rules': m0010b,
  '0012_retention': m0012,
  '0013_scan_gate_columns': m0013,
  '0014_source_location': m0014,
  '0015_assessments': m0015,
  '0019_element_screenshots': m0019,
  '0017_engine_upgrade': m0017,
  '0016_scan_shards': m0016,
  '0021_github_sign_in': m0021,
  '0018_pr_comments': m0018,
  '0023_inapplicable_rules': m0023,
  '0024_scan_issue_order': m0024,
  '0025_github_deliveries': m0025,
  '0026_scan_scope': m0026,
  '0027_page_viewport': m0027,
  '0028_statements': m0028,
  '0029_history': m0029,
  '0030_deadlines': m0030,
  '0031_claims': m0031,
  '0032_portfolio': m0032,
  '0033_served_folder': m0033,
  '0034_history_queue': m0034,
  '0035_history_totals': m0035,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: () => Promise.resolve(Object.keys(migrations).sort()),
  getMigrationName: (name) => name,
  getMigration: (name) => Promise.resolve(migrations[name]),
};

export async function migrateToLatest(db: Knex): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await db.migrate.latest({ migrationSource });
    return;
  }
  // Several instances may start at once on one PostgreSQL database. knex creates its bookkeeping
  // tables without a lock ("relation knex_migrations already exists") and fails outright when its
  // own lock is taken, so the instances queue on an advisory lock (per schema) held by one open
  // transaction while the migrations run on other pooled connections.
  await db.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(hashtext('a11y-gate migrations ' || current_schema()))");
    await db.migrate.latest({ migrationSource });
  });
}

/** True when every known migration has been applied (used by /readyz). */
export async function migrationsApplied(db: Knex): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
  return pending.length === 0;
}
