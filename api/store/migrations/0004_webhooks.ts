import type { Knex } from 'knex';

/**
 * Webhook subscriptions, one delivery row per (message, subscription) with its retry state and lease,
 * and one row per attempt (what the deliveries endpoint lists).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.text('url').notNullable();
    // JSON array of event types, or ["*"].
    t.text('events').notNullable();
    t.string('description', 500);
    // AES-256-GCM sealed `whsec_…` secret.
    t.text('secret_sealed').notNullable();
    t.string('status', 16).notNullable();
    t.string('disabled_reason', 200);
    t.string('failing_since', 30);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['org', 'status']);
    t.index(['org', 'created_at']);
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.string('id', 40).primary();
    t.string('org', 100).notNullable();
    t.string('subscription_id', 40).notNullable().references('webhook_subscriptions.id').onDelete('CASCADE');
    t.string('message_id', 40).notNullable().references('outbox_messages.id').onDelete('CASCADE');
    t.string('event_type', 60).notNullable();
    // pending → succeeded | failed | cancelled
    t.string('status', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('next_attempt_at', 30);
    t.string('locked_until', 30);
    t.string('locked_by', 60);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['message_id', 'subscription_id']);
    t.index(['status', 'next_attempt_at']);
    t.index(['subscription_id', 'status']);
  });

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id').primary();
    t.string('delivery_id', 40).notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.string('subscription_id', 40).notNullable();
    t.string('org', 100).notNullable();
    t.string('message_id', 40).notNullable();
    t.string('event_type', 60).notNullable();
    t.integer('attempt').notNullable();
    // succeeded | retrying | failed
    t.string('outcome', 16).notNullable();
    t.integer('response_status');
    t.text('response_excerpt');
    t.text('error');
    t.integer('duration_ms').notNullable();
    t.string('attempted_at', 30).notNullable();
    t.string('next_attempt_at', 30);
    t.index(['subscription_id', 'attempted_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_subscriptions');
}
