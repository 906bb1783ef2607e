import type { Knex } from 'knex';
import { dialectOf } from '../db.js';

/**
 * Reading a large scan rule by rule (the console's scan page): counts per rule and impact come from this
 * index alone, and the issues of a scan are listed in (rule, impact, id) order straight off it, so a
 * screen of a 100,000-issue scan never sorts or counts the table. Missing impacts sort first on both
 * databases (SQLite's default; PostgreSQL is told).
 */
export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'postgres') {
    await knex.raw(
      'create index scan_issues_rule_idx on scan_issues (scan_id, rule, impact nulls first, id)',
    );
  } else {
    await knex.raw('create index scan_issues_rule_idx on scan_issues (scan_id, rule, impact)');
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index scan_issues_rule_idx');
}
