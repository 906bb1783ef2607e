import type { Knex } from 'knex';
import type { ApiContext } from '../../api/context.js';
import { createDeliveryWorker } from '../../api/jobs/webhooks.js';
import type { DeliveryWorkerOptions } from '../../api/outbox/delivery-worker.js';
import type { OutboxEvent, OutboxEventType } from '../../api/schemas/webhook-events.js';

/** A message of the outbox, as api/outbox/record.ts writes it. */
export interface OutboxRow {
  id: string;
  org: string;
  type: string;
  /** The event envelope as JSON (EventPayload). */
  payload: string;
  created_at: string;
}

/** A message's payload, the envelope webhooks deliver: `data` as the event catalogue types it. */
export type EventPayload<T extends OutboxEventType> = Extract<OutboxEvent, { type: T }> & {
  timestamp: string;
  console_url?: string;
};

/** The payloads of the outbox's messages of one type (of one org, when given), oldest first. */
export async function eventPayloads<T extends OutboxEventType>(
  db: Knex,
  type: T,
  org?: string,
): Promise<Array<EventPayload<T>>> {
  const rows = await db<OutboxRow>('outbox_messages')
    .where(org === undefined ? { type } : { type, org })
    .orderBy('created_at');
  return rows.map((r) => JSON.parse(r.payload) as EventPayload<T>);
}

/**
 * Runs the outbox's delivery worker until nothing more is due: the webhooks and the GitHub deliveries
 * (check runs and pull request comments) of what the test did so far. One attempt each unless `options`
 * gives a retry schedule, so a failure does not come back to meet a later test's fake GitHub.
 */
export async function deliverDue(
  ctx: ApiContext,
  options: Partial<DeliveryWorkerOptions> = { retryDelaysMs: [0] },
): Promise<void> {
  const worker = createDeliveryWorker(ctx, options);
  await worker.drain();
  await worker.stop();
}
