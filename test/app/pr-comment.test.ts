import nock from 'nock';
import type { CreatedScan } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import {
  capturingLogger,
  type CreatedCheckRun,
  signWebhook,
  testProbot,
  webhookExample,
} from '../fixtures/github/test-app.js';
import { checkAgainstGitHub } from '../fixtures/github/openapi.js';
import { onlyFakeGitHub } from '../helpers/github-network.js';
import { deliverDue } from '../helpers/outbox.js';

/**
 * The pull request comment and the merge queue through the real server: triggers and signed webhooks
 * over HTTP, a real database, GitHub faked with nock, and every request the App sends to GitHub checked
 * against GitHub's own OpenAPI description.
 */

const GITHUB = 'https://api.github.com';
const INSTALLATION = 5150;
const COMMENT_ID = 777001;

interface SentComment {
  body: string;
}

onlyFakeGitHub();

describe.each(dbKinds)('pull request comment and merge queue (%s)', (db) => {
  const probotLog = capturingLogger();
  const h = useHarness({
    db,
    org: 'acme',
    probot: testProbot({ log: probotLog.logger }),
    env: { GITHUB_TIMEOUT_MS: '4000', GITHUB_INSTALLATIONS_ORG: 'acme', PUBLIC_URL: 'https://gate.example' },
  });
  const published = () => deliverDue(h.server.service.ctx);

  async function scan(siteId: string, sha: string, rules: string[], branch = 'feature') {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        url: 'https://shop.example.com/',
        siteId,
        sha,
        branch,
        pages: [
          {
            url: '/checkout',
            title: 'Checkout',
            issues: rules.map((rule, i) => ({
              rule,
              impact: 'critical',
              selector: `#${rule}-${i}`,
              source: { path: 'src/Checkout.vue', line: 10 + i },
            })),
          },
        ],
      },
    });
    expect(res.status).toBe(201);
  }

  async function configure(siteId: string, settings: Record<string, unknown>) {
    const res = await h.request('PATCH', `/api/v1/sites/${siteId}`, { key: h.key, body: settings });
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>;
  }

  async function trigger(body: Record<string, unknown>) {
    const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', { key: h.key, body });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** GitHub's installation look-up and token exchange, and the check runs (recorded). */
  function github(checkRuns: CreatedCheckRun[], times = 1) {
    const scope = nock(GITHUB)
      .get('/repos/acme/shop/installation')
      .times(times)
      .reply(200, { id: INSTALLATION, account: { login: 'acme' } })
      .post(`/app/installations/${INSTALLATION}/access_tokens`)
      .optionally()
      .reply(201, { token: 'ghs_comment', expires_at: '2099-01-01T00:00:00Z' })
      .post('/repos/acme/shop/check-runs', (b: CreatedCheckRun) => (checkRuns.push(b), true))
      .times(times)
      .reply(201, { id: 9001, html_url: 'https://github.com/acme/shop/runs/9001' });
    return { scope, refusals: checkAgainstGitHub(scope) };
  }

  async function postWebhook(name: string, payload: object) {
    const body = JSON.stringify(payload);
    const res = await fetch(`${h.url}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': name,
        'x-github-delivery': `delivery-${Math.random().toString(36).slice(2)}`,
        'x-hub-signature-256': signWebhook(body),
      },
      body,
    });
    if (res.status !== 200) console.log(probotLog.lines.filter((l) => l.level >= 40));
    expect(res.status).toBe(200);
  }

  test('two results on one pull request: one comment, created and then updated in place', async () => {
    const pr = webhookExample('pull_request', 'opened');
    const sha1 = pr.pull_request.head.sha;
    const sha2 = 'a'.repeat(40);
    await scan('shop', sha1, ['image-alt', 'label']);
    await scan('shop', sha2, []);
    await configure('shop', { repository: 'acme/shop' });

    const checkRuns: CreatedCheckRun[] = [];
    const created: SentComment[] = [];
    const updated: SentComment[] = [];
    const { scope, refusals } = github(checkRuns, 2);
    const comments = nock(GITHUB)
      .get(`/repos/acme/shop/issues/${pr.number}/comments`)
      .query(true)
      // Someone else's comment quoting the marker is not ours to edit.
      .reply(200, [{ id: 1, body: '<!-- a11y-gate:shop -->\nquoted', user: { type: 'User' } }])
      .post(`/repos/acme/shop/issues/${pr.number}/comments`, (b: SentComment) => (created.push(b), true))
      .reply(201, { id: COMMENT_ID })
      .patch(`/repos/acme/shop/issues/comments/${COMMENT_ID}`, (b: SentComment) => (updated.push(b), true))
      .reply(200, { id: COMMENT_ID });
    refusals.push(...checkAgainstGitHub(comments));

    // The Action sends the number from its pull_request event.
    const first = await trigger({ siteId: 'shop', sha: sha1, pull_request: pr.number });
    await published();
    expect(first.passed).toBe(false);
    expect(created).toHaveLength(1);
    expect(created[0].body.startsWith('<!-- a11y-gate:shop -->\n')).toBe(true);
    expect(created[0].body).toContain('❌ Accessibility gate failed');
    expect(created[0].body).toContain(`https://gate.example/deploys/${first.id}`);
    expect(created[0].body).toContain(`https://github.com/acme/shop/blob/${sha1}/src/Checkout.vue#L10`);

    const second = await trigger({ siteId: 'shop', sha: sha2, pull_request: pr.number });
    await published();
    expect(second.passed).toBe(true);
    expect(created).toHaveLength(1);
    expect(updated).toHaveLength(1);
    expect(updated[0].body).toContain('✅ Accessibility gate passed');
    expect(updated[0].body).toContain('Nothing new: this commit adds no accessibility issues.');
    expect(updated[0].body).toContain(`https://gate.example/deploys/${second.id}`);
    expect(checkRuns.map((c) => c.head_sha)).toEqual([sha1, sha2]);
    expect(scope.isDone() && comments.isDone()).toBe(true);
    expect(refusals).toEqual([]);
  });

  test('two results at the same moment: still one comment (the second writer waits and updates it)', async () => {
    const sha = 'b'.repeat(40);
    await scan('race', sha, ['image-alt']);
    await configure('race', { repository: 'acme/shop' });
    const checkRuns: CreatedCheckRun[] = [];
    const created: SentComment[] = [];
    const updated: SentComment[] = [];
    const { refusals } = github(checkRuns, 2);
    const comments = nock(GITHUB)
      .get('/repos/acme/shop/issues/8/comments')
      .query(true)
      .reply(200, [])
      // GitHub takes its time to create the first: the second result arrives meanwhile.
      .post('/repos/acme/shop/issues/8/comments', (b: SentComment) => (created.push(b), true))
      .delay(400)
      .reply(201, { id: COMMENT_ID + 1 })
      .patch(
        `/repos/acme/shop/issues/comments/${COMMENT_ID + 1}`,
        (b: SentComment) => (updated.push(b), true),
      )
      .reply(200, { id: COMMENT_ID + 1 });
    refusals.push(...checkAgainstGitHub(comments));

    const [a, b] = await Promise.all([
      trigger({ siteId: 'race', sha, pull_request: 8 }),
      trigger({ siteId: 'race', sha, pull_request: 8 }),
    ]);
    await published();
    expect(a.id).not.toBe(b.id);
    expect(checkRuns).toHaveLength(2);
    expect(created).toHaveLength(1);
    expect(updated).toHaveLength(1);
    expect(comments.isDone()).toBe(true);
    expect(refusals).toEqual([]);
    const rows = await h
      .db('github_pr_comments')
      .where({ site_id: 'race' })
      .select<Array<{ comment_id: number | string; lease_until: string | null }>>(
        'comment_id',
        'lease_until',
      );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].comment_id)).toBe(COMMENT_ID + 1);
    expect(rows[0].lease_until).toBeNull();
  });

  test('no number in the trigger: the open pull request GitHub lists for the commit; its marked comment is found again', async () => {
    const pr = webhookExample('pull_request', 'opened');
    const sha = 'c'.repeat(40);
    await scan('lookup', sha, ['label']);
    await configure('lookup', { repository: 'acme/shop' });
    const updated: SentComment[] = [];
    const { refusals } = github([]);
    const comments = nock(GITHUB)
      .get(`/repos/acme/shop/commits/${sha}/pulls`)
      .query(true)
      .reply(200, [pr.pull_request, { ...pr.pull_request, number: 99, state: 'closed' }])
      .get(`/repos/acme/shop/issues/${pr.number}/comments`)
      .query(true)
      .reply(200, [{ id: 4242, body: '<!-- a11y-gate:lookup -->\nold result', user: { type: 'Bot' } }])
      .patch('/repos/acme/shop/issues/comments/4242', (b: SentComment) => (updated.push(b), true))
      .reply(200, { id: 4242 });
    refusals.push(...checkAgainstGitHub(comments));

    await trigger({ siteId: 'lookup', sha });
    await published();
    expect(updated).toHaveLength(1);
    expect(updated[0].body).toContain('1 new accessibility issue (1 critical)');
    expect(comments.isDone()).toBe(true);
    expect(refusals).toEqual([]);
  });

  test('a comment GitHub answered 502 is written by the delivery’s next attempt; the check run is not posted again', async () => {
    const pr = webhookExample('pull_request', 'opened');
    const sha = 'e'.repeat(40);
    await scan('retry', sha, ['image-alt']);
    await configure('retry', { repository: 'acme/shop' });
    const checkRuns: CreatedCheckRun[] = [];
    const created: SentComment[] = [];
    const { scope, refusals } = github(checkRuns);
    const again = nock(GITHUB).get('/repos/acme/shop/installation').reply(200, { id: INSTALLATION });
    const comments = nock(GITHUB)
      .get(`/repos/acme/shop/issues/${pr.number}/comments`)
      .query(true)
      .times(2)
      .reply(200, [])
      .post(`/repos/acme/shop/issues/${pr.number}/comments`)
      .reply(502, { message: 'Server Error' })
      .post(`/repos/acme/shop/issues/${pr.number}/comments`, (b: SentComment) => (created.push(b), true))
      .reply(201, { id: COMMENT_ID + 1 });
    refusals.push(...checkAgainstGitHub(comments));

    const event = await trigger({ siteId: 'retry', sha, pull_request: pr.number });
    // Two attempts, the second due at once after the first.
    await deliverDue(h.server.service.ctx, { retryDelaysMs: [0, 0] });
    expect(scope.isDone() && again.isDone() && comments.isDone()).toBe(true);
    expect(checkRuns).toHaveLength(1);
    expect(created).toHaveLength(1);
    expect(created[0].body).toContain('❌ Accessibility gate failed');
    const after = await h.request<DeployEvent>('GET', `/api/v1/deploy/${event.id}`, { key: h.key });
    expect(after.body.check_run).toMatchObject({ status: 'completed', id: 9001 });
    expect(refusals).toEqual([]);
  });

  test('pr_comment false: the check run only, no comment', async () => {
    const sha = 'd'.repeat(40);
    await scan('quiet', sha, ['label']);
    expect(await configure('quiet', { repository: 'acme/shop', pr_comment: false })).toMatchObject({
      pr_comment: false,
    });
    const checkRuns: CreatedCheckRun[] = [];
    const { scope, refusals } = github(checkRuns);
    await trigger({ siteId: 'quiet', sha, pull_request: 3 });
    await published();
    expect(scope.isDone()).toBe(true);
    expect(checkRuns).toHaveLength(1);
    expect(nock.pendingMocks()).toEqual([]);
    expect(refusals).toEqual([]);
  });

  test('merge_group checks_requested: a neutral check run on the merge-group commit for a site whose workflow does not scan merge groups', async () => {
    await scan('queue', 'e'.repeat(40), ['label'], 'main');
    await scan('queue-scanned', 'e'.repeat(40), ['label'], 'main');
    await configure('queue', { repository: 'acme/queue' });
    expect(
      await configure('queue-scanned', { repository: 'acme/queue', merge_group_scans: true }),
    ).toMatchObject({
      merge_group_scans: true,
    });
    const payload = webhookExample('merge_group', 'checks_requested');
    payload.repository.full_name = 'acme/queue';
    payload.repository.name = 'queue';
    payload.repository.owner.login = 'acme';
    payload.installation!.id = INSTALLATION;

    const runs: CreatedCheckRun[] = [];
    const scope = nock(GITHUB)
      .post(`/app/installations/${INSTALLATION}/access_tokens`)
      .optionally()
      .reply(201, { token: 'ghs_queue', expires_at: '2099-01-01T00:00:00Z' })
      .post('/repos/acme/queue/check-runs', (b: CreatedCheckRun) => (runs.push(b), true))
      .reply(201, { id: 9300 });
    const refusals = checkAgainstGitHub(scope);
    await postWebhook('merge_group', payload);
    expect(scope.isDone()).toBe(true);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      name: 'a11y-gate / queue',
      head_sha: payload.merge_group.head_sha,
      status: 'completed',
      conclusion: 'neutral',
      output: { title: 'This workflow does not scan merge groups' },
    });
    expect(refusals).toEqual([]);
  });

  test('a merge group the workflow scans: its gate result is the check run on the merge-group commit', async () => {
    const payload = webhookExample('merge_group', 'checks_requested');
    const { head_sha: head, base_sha: base } = payload.merge_group;
    await scan('queued', base, [], 'main');
    await scan('queued', head, ['image-alt'], 'gh-readonly-queue/main/pr-104');
    await configure('queued', { repository: 'acme/shop', merge_group_scans: true });
    const checkRuns: CreatedCheckRun[] = [];
    const { scope, refusals } = github(checkRuns);
    const pulls = nock(GITHUB).get(`/repos/acme/shop/commits/${head}/pulls`).query(true).reply(200, []);
    refusals.push(...checkAgainstGitHub(pulls));
    // What the Action sends for a merge_group event.
    const event = await trigger({
      siteId: 'queued',
      sha: head,
      baseline_sha: base,
      ref: payload.merge_group.head_ref,
    });
    await published();
    expect(event.baseline?.sha).toBe(base);
    expect(scope.isDone() && pulls.isDone()).toBe(true);
    expect(checkRuns[0]).toMatchObject({ name: 'a11y-gate / queued', head_sha: head, conclusion: 'failure' });
    expect(refusals).toEqual([]);
  });
});
