import nock from 'nock';
import { claimStalePendingCheckRuns } from '../../api/index.js';
import { startCheckRunRecovery } from '../../app/check-run-recovery.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { testProbot } from '../fixtures/github/test-app.js';

const GITHUB = 'https://api.github.com';
const SHA = '4444444444444444444444444444444444444444';

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

/**
 * A process that stops between answering a trigger and posting its check run leaves the deploy event
 * `pending`; the recovery sweep posts it later, once, whichever instance sweeps.
 */
describe.each(dbKinds)('check runs left pending are posted again (%s)', (db) => {
  // Nothing here waits for the deadline; a loaded machine (JWT signing, token exchange) must not trip it.
  const h = useHarness({
    db,
    org: 'acme',
    probot: testProbot(),
    env: { GITHUB_TIMEOUT_MS: '4000', GITHUB_INSTALLATIONS_ORG: 'acme' },
  });

  function github(checkRunId: number) {
    const created: unknown[] = [];
    const scope = nock(GITHUB)
      .get('/repos/acme/shop/installation')
      .reply(200, { id: 77, account: { login: 'acme' } })
      .post('/app/installations/77/access_tokens')
      .optionally()
      .reply(201, { token: 'ghs_recovery', expires_at: '2099-01-01T00:00:00Z' })
      .post('/repos/acme/shop/check-runs', (body) => (created.push(body), true))
      .reply(201, { id: checkRunId, html_url: `https://github.com/acme/shop/runs/${checkRunId}` });
    return { scope, created };
  }

  test('an abandoned pending event is claimed by one sweeper only and posted once', async () => {
    const scan = await h.request('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId: 'shop',
        url: 'https://shop.example/',
        sha: SHA,
        pages: [{ url: '/', issues: [{ rule: 'image-alt', impact: 'critical', selector: 'img' }] }],
      },
    });
    expect(scan.status).toBe(201);
    await h.request('PATCH', '/api/v1/sites/shop', { key: h.key, body: { repository: 'acme/shop' } });

    const first = github(501);
    const trigger = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'shop', sha: SHA },
    });
    expect(trigger.status).toBe(201);
    await h.server.publisher!.idle();
    expect(first.scope.isDone()).toBe(true);

    // As if the process had stopped before posting: pending, last touched a while ago.
    const longAgo = new Date(Date.now() - 10 * 60_000).toISOString();
    await h.db('deploys').where({ id: trigger.body.id }).update({
      check_run_status: 'pending',
      check_run_id: null,
      check_run_url: null,
      updated_at: longAgo,
    });
    // A fresh pending event (its own process may still be posting it) is left alone.
    expect(await claimStalePendingCheckRuns(h.server.service.ctx, 60 * 60_000)).toEqual([]);

    // Two instances sweep at once: exactly one of them gets the event.
    const claims = await Promise.all([
      claimStalePendingCheckRuns(h.server.service.ctx, 60_000),
      claimStalePendingCheckRuns(h.server.service.ctx, 60_000),
    ]);
    expect(claims.flat()).toEqual([trigger.body.id]);

    // Back to abandoned, then the real sweep posts it.
    await h.db('deploys').where({ id: trigger.body.id }).update({ updated_at: longAgo });
    const again = github(502);
    const recovery = startCheckRunRecovery({
      publisher: h.server.publisher!,
      claimStale: (olderThanMs) => claimStalePendingCheckRuns(h.server.service.ctx, olderThanMs),
      logger: h.server.service.ctx.logger,
      olderThanMs: 60_000,
      everyMs: 3_600_000,
    });
    try {
      await recovery.runOnce(); // the sweep started with the recovery may have done it already
      await h.server.publisher!.idle();
      expect(again.scope.isDone()).toBe(true);
      expect(again.created).toHaveLength(1);
      expect(again.created[0]).toMatchObject({ head_sha: SHA, external_id: trigger.body.id });
      const event = await h.request<DeployEvent>('GET', `/api/v1/deploy/${trigger.body.id}`, { key: h.key });
      expect(event.body.check_run).toMatchObject({ status: 'completed', id: 502 });
      // Nothing is left to post.
      expect(await recovery.runOnce()).toBe(0);
    } finally {
      recovery.stop();
    }
  });
});
