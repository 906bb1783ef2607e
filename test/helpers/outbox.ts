import type { Knex } from 'knex';
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
