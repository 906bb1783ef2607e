import { checkEvent, recordEvent } from '../../api/outbox/record.js';
import { type OutboxEvent } from '../../api/schemas/webhook-events.js';
import { useHarness } from '../helpers/harness.js';

describe('the outbox takes typed events checked against the event catalogue', () => {
  const h = useHarness();

  const ping: OutboxEvent = {
    type: 'webhook.ping',
    data: { webhook_id: 'whk_1', url: 'https://hooks.example/a', events: ['scan.created'] },
  };

  test('data that matches its type is accepted', () => {
    expect(() => checkEvent(ping)).not.toThrow();
  });

  test('data of another shape is refused, naming the event and the field; nothing is written', async () => {
    // @ts-expect-error: a scan's data under the ping's type does not compile either
    const wrong: OutboxEvent = { type: 'webhook.ping', data: { id: 'scn_1' } };
    expect(() => checkEvent(wrong)).toThrow(
      /^webhook\.ping event data does not match the event catalogue: .*webhook_id/,
    );
    const before = await h.db('outbox_messages').count<Array<{ n: number | string }>>({ n: '*' });
    await expect(h.db.transaction((trx) => recordEvent(trx, 'acme', wrong))).rejects.toThrow(/webhook\.ping/);
    const after = await h.db('outbox_messages').count<Array<{ n: number | string }>>({ n: '*' });
    expect(Number(after[0].n)).toBe(Number(before[0].n));
  });
});
