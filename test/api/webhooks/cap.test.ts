import { dbKinds, useHarness } from '../../helpers/harness.js';

/**
 * The subscription cap bounds the fan-out inside every scan and gate transaction, so it must hold when
 * many creations race: counting and inserting happen under one lock per org.
 */
describe.each(dbKinds)('webhook subscription cap under concurrency (%s)', (db) => {
  const h = useHarness({ db, env: { RATE_LIMIT_PER_MINUTE: '100000' } });

  test('200 parallel creations store exactly 50; the rest are 422 (webhooks_per_org)', async () => {
    const key = await h.createKey({ org: 'race', scopes: ['manage', 'read'] });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        h.request('POST', '/api/v1/webhooks', {
          key,
          body: { url: `https://hooks.example.com/${i}`, events: ['scan.created'] },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 422)).toHaveLength(150);
    const stored = await h.db('webhook_subscriptions').where({ org: 'race' }).count({ n: '*' }).first();
    expect(Number(stored?.n)).toBe(50);
    // Another org is not affected by this one's cap.
    const other = await h.createKey({ org: 'race-other', scopes: ['manage'] });
    const res = await h.request('POST', '/api/v1/webhooks', {
      key: other,
      body: { url: 'https://hooks.example.com/other', events: ['*'] },
    });
    expect(res.status).toBe(201);
  });
});
