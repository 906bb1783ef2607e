import type { Knex } from 'knex';
import { consoleUrl, eventConsolePath } from '../domain/console-links.js';
import { newId, nowIso } from '../domain/ids.js';
import { eventDataSchema, type OutboxEvent } from '../schemas/webhook-events.js';
import { fanOutMessage, queueGitHubDelivery } from '../store/webhooks/deliveries.js';

/**
 * Checks an event's `data` against its schema in the event catalogue; throws naming the event and
 * the fields that do not match. The types already hold this at compile time; under test every recorded
 * event is checked at run time too, so data that only looks right to the compiler (a cast, an `any`)
 * fails the test that records it.
 */
export function checkEvent(event: OutboxEvent): void {
  const parsed = eventDataSchema(event.type).safeParse(event.data);
  if (parsed.success) return;
  const fields = parsed.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`);
  throw new Error(`${event.type} event data does not match the event catalogue: ${fields.join('; ')}`);
}

const checkAtRunTime = process.env.NODE_ENV === 'test';

/**
 * Writes an event to the outbox inside the caller's transaction, so the event exists exactly when the
 * change that caused it does, together with one pending delivery per subscription that wants it (and
 * the GitHub delivery when asked); the delivery worker then delivers those.
 * Returns the message id (`msg_…`), which is also the `webhook-id` of every delivery.
 */
export async function recordEvent(
  trx: Knex.Transaction | Knex,
  org: string,
  event: OutboxEvent,
  options: {
    /** Deliver to this subscription only, whatever its event types (a ping). */
    only?: string;
    /** PUBLIC_URL: when set, the payload's `console_url` is the console page of the event's subject. */
    publicUrl?: string;
    /** Also deliver it to GitHub (a deploy decision's check run and pull request comment). */
    github?: boolean;
  } = {},
): Promise<string> {
  if (checkAtRunTime) checkEvent(event);
  const link = consoleUrl(options.publicUrl, eventConsolePath(event.type, event.data));
  return writeOutboxMessage(trx, org, event.type, event.data, options.only, link, options.github);
}

/**
 * The outbox write itself, for any type and data: what `recordEvent` does after the event is typed and
 * checked. Services record events with `recordEvent`; this is for the delivery machinery's own tests
 * and benchmarks, whose messages stand for any event.
 */
export async function writeOutboxMessage(
  trx: Knex.Transaction | Knex,
  org: string,
  type: string,
  data: unknown,
  only?: string,
  consoleLink?: string,
  github = false,
): Promise<string> {
  const id = newId('msg');
  const createdAt = nowIso();
  await trx('outbox_messages').insert({
    id,
    org,
    type,
    payload: JSON.stringify({ type, timestamp: createdAt, data, console_url: consoleLink }),
    created_at: createdAt,
  });
  // One pending delivery per matching subscription, in the same transaction: committed together or not at all.
  await fanOutMessage(trx, { id, org, type, createdAt }, only);
  if (github) await queueGitHubDelivery(trx, { id, org, type, createdAt });
  return id;
}
