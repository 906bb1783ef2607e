import type { Knex } from 'knex';

export async function up(_knex: Knex): Promise<void> {
  // Filled in by the feature that owns these tables.
}

export async function down(_knex: Knex): Promise<void> {}
