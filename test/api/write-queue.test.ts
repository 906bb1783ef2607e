import type { CreatedScan, Problem } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { dbKinds, useHarness } from '../helpers/harness.js';

const SHA = 'c'.repeat(40);

function scan(sha: string) {
  return {
    url: 'https://queue.example/',
    siteId: 'queue',
    sha,
    branch: 'main',
    pages: [
      { url: '/', issues: [{ rule: 'image-alt', impact: 'critical', selector: 'img', wcag: ['1.1.1'] }] },
    ],
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe.each(dbKinds)('heavy writes take turns (%s)', (db) => {
  const h = useHarness({ db, org: 'queue-org', env: { WRITE_CONCURRENCY: '1', WRITE_QUEUE_WAIT_MS: '300' } });

  it('while every turn is taken, reads are answered, and a write that cannot start is refused with 503 and nothing stored', async () => {
    const first = await h.request<CreatedScan>('POST', '/api/v1/scans', { key: h.key, body: scan(SHA) });
    expect(first.status).toBe(201);
    const event = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'queue', sha: SHA },
    });
    expect(event.status).toBe(201);

    // Another write holds the only turn for as long as this test wants.
    const leave = await h.server.service.ctx.writes.enter();
    try {
      const read = await h.request<DeployEvent>('GET', `/api/v1/deploy/${event.body.id}`, { key: h.key });
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(event.body.id);

      const refused = await h.request<Problem>('POST', '/api/v1/scans', {
        key: h.key,
        body: scan('d'.repeat(40)),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.body.detail).toMatch(/could not start the request within 300 ms/);
      const trigger = await h.request<Problem>('POST', '/api/v1/deploy/trigger', {
        key: h.key,
        body: { siteId: 'queue', sha: SHA },
      });
      expect(trigger.status).toBe(503);
    } finally {
      leave();
    }
    expect(
      await h
        .db('scans')
        .where({ sha: 'd'.repeat(40) })
        .count({ n: '*' }),
    ).toEqual([{ n: 0 }]);
    expect(await h.db('deploys').count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('a write still waiting when the service begins to shut down is refused with 503, not started', async () => {
    const leave = await h.server.service.ctx.writes.enter();
    const waiting = h.request<Problem>('POST', '/api/v1/scans', { key: h.key, body: scan('e'.repeat(40)) });
    await until(() => h.server.service.ctx.writes.size.waiting === 1);
    h.server.service.ctx.lifecycle.shuttingDown = true;
    try {
      leave();
      const refused = await waiting;
      expect(refused.status).toBe(503);
      expect(refused.body.detail).toMatch(/shutting down/);
    } finally {
      h.server.service.ctx.lifecycle.shuttingDown = false;
    }
    expect(
      await h
        .db('scans')
        .where({ sha: 'e'.repeat(40) })
        .count({ n: '*' }),
    ).toEqual([{ n: 0 }]);
  });
});

describe.each(dbKinds)('heavy writes sent together (%s)', (db) => {
  // The default wait for a turn: with the 300 ms above, a busy machine refused the last of eight.
  const h = useHarness({ db, org: 'queue-org', env: { WRITE_CONCURRENCY: '1' } });

  it('writes sent together all go in, one at a time', async () => {
    const shas = Array.from({ length: 8 }, (_, i) => (i + 1).toString(16).repeat(40));
    const answers = await Promise.all(
      shas.map((sha) => h.request<CreatedScan>('POST', '/api/v1/scans', { key: h.key, body: scan(sha) })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(h.server.service.ctx.writes.size).toEqual({ running: 0, waiting: 0 });
    const stored = await h.db('scans').whereIn('sha', shas).count({ n: '*' });
    expect(stored).toEqual([{ n: 8 }]);
  });
});
