import type { Knex } from 'knex';
import { sweepExpiredWaivers } from '../../api/services/waivers/expiry.js';
import { newId } from '../../api/domain/ids.js';
import type { CreatedWebhook } from '../helpers/api-types.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import type { EventPayload, OutboxRow } from '../helpers/outbox.js';

/** The stored columns these tests read: outbox messages (and their payload), waivers, deliveries. */
interface WaiverRow {
  id: string;
  expired_event_at: string | null;
}
interface DeliveryRow {
  subscription_id: string;
  event_type: string;
  status: string;
}

/**
 * Inserts a waiver with the columns the sweep relies on; any other required column the gate's
 * migration defines gets a placeholder, so this test does not depend on the rest of that table.
 */
async function insertWaiver(db: Knex, w: { org: string; expires_at: string | null; revoked_at?: string }) {
  if (!(await db.schema.hasTable('waivers'))) {
    await db.schema.createTable('waivers', (t) => {
      t.string('id', 40).primary();
      t.string('org', 100).notNullable();
      t.string('site_id', 100).notNullable();
      t.string('rule', 200).notNullable();
      t.text('reason');
      t.string('expires_at', 30);
      t.string('revoked_at', 30);
      t.string('expired_event_at', 30);
      t.string('created_at', 30).notNullable();
    });
  }
  const id = newId('wvr');
  const row: Record<string, unknown> = {
    id,
    org: w.org,
    site_id: 'shop-web',
    rule: 'color-contrast',
    reason: 'vendor widget, fix scheduled',
    expires_at: w.expires_at,
    revoked_at: w.revoked_at ?? null,
    expired_event_at: null,
  };
  const info = await db('waivers').columnInfo();
  for (const [name, c] of Object.entries(info)) {
    if (name in row || c.nullable || c.defaultValue !== null) continue;
    row[name] = /int|numeric|real|double/i.test(c.type)
      ? 0
      : name.endsWith('_at')
        ? new Date().toISOString()
        : 'x';
  }
  await db('waivers').insert(row);
  return id;
}

describe.each(dbKinds)('waiver.expired sweep (%s)', (db) => {
  const h = useHarness({ db });

  test('each expired waiver gets exactly one waiver.expired event, even with sweeps racing', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const expired = [
      await insertWaiver(h.db, { org: 'w1', expires_at: past }),
      await insertWaiver(h.db, { org: 'w2', expires_at: past }),
    ];
    const live = await insertWaiver(h.db, { org: 'w1', expires_at: future });
    const revoked = await insertWaiver(h.db, { org: 'w1', expires_at: past, revoked_at: past });
    const forever = await insertWaiver(h.db, { org: 'w1', expires_at: null });

    const ctx = h.server.service.ctx;
    const counts = await Promise.all([
      sweepExpiredWaivers(ctx),
      sweepExpiredWaivers(ctx),
      sweepExpiredWaivers(ctx),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await sweepExpiredWaivers(ctx)).toBe(0);

    const events = await h.db<OutboxRow>('outbox_messages').where({ type: 'waiver.expired' }).orderBy('org');
    expect(events).toHaveLength(2);
    const payloads = events.map((e) => JSON.parse(e.payload) as EventPayload<'waiver.expired'>);
    expect(payloads.map((p) => p.data.id).sort()).toEqual([...expired].sort());
    expect(events.map((e) => e.org)).toEqual(['w1', 'w2']);
    expect(payloads[0]).toMatchObject({
      type: 'waiver.expired',
      data: { siteId: 'shop-web', rule: 'color-contrast' },
    });

    const rows = await h.db<WaiverRow>('waivers').whereIn('id', [live, revoked, forever]);
    expect(rows.every((r) => r.expired_event_at === null)).toBe(true);
  });

  test('the event and its deliveries are written in the same transaction as the mark', async () => {
    const key = await h.createKey({ org: 'w3' });
    const sub = await h.request<CreatedWebhook>('POST', '/api/v1/webhooks', {
      key,
      body: { url: 'https://hooks.example.com/w3', events: ['waiver.expired'] },
    });
    expect(sub.status).toBe(201);
    const id = await insertWaiver(h.db, { org: 'w3', expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(await sweepExpiredWaivers(h.server.service.ctx)).toBe(1);
    const waiver = await h.db<WaiverRow>('waivers').where({ id }).first();
    expect(waiver!.expired_event_at).not.toBeNull();
    const deliveries = await h.db<DeliveryRow>('webhook_deliveries').where({ subscription_id: sub.body.id });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ event_type: 'waiver.expired', status: 'pending' });
  });
});
