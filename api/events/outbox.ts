import type { Knex } from 'knex';
import { newId, nowIso } from '../domain/ids.js';
import type { EventType, PING_EVENT } from '../schemas/events.js';
import { fanOutMessage } from '../store/deliveries.js';

export interface OutboxEvent {
  org: string;
  type: EventType | typeof PING_EVENT;
  data: unknown;
}

/**
 * Writes an event to the outbox inside the caller's transaction, so the event exists exactly when the
 * change that caused it does, together with one pending delivery per subscription that wants it;
 * the webhook worker then delivers those.
 * Returns the message id (`msg_…`), which is also the `webhook-id` of every delivery.
 */
export async function recordEvent(
  trx: Knex.Transaction | Knex,
  event: OutboxEvent,
  /** Deliver to this subscription only, whatever its event types (a ping). */
  only?: string,
): Promise<string> {
  const id = newId('msg');
  const createdAt = nowIso();
  await trx('outbox_messages').insert({
    id,
    org: event.org,
    type: event.type,
    payload: JSON.stringify({ type: event.type, timestamp: createdAt, data: event.data }),
    created_at: createdAt,
  });
  // One pending delivery per matching subscription, in the same transaction: committed together or not at all.
  await fanOutMessage(trx, { id, org: event.org, type: event.type, createdAt }, only);
  return id;
}
