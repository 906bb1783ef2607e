import nock from 'nock';
import type { InstallationLinkList, InstallationLinkView, Problem, Site } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { requestRerun, testProbot } from '../fixtures/github/test-app.js';
import { ConsoleClient } from '../console/client.js';
import { onlyFakeGitHub } from '../helpers/github-network.js';
import { deliverDue } from '../helpers/outbox.js';

/**
 * Who may post where: org A's installation of the App covers acme/shop; org B must never get a check run
 * onto it, whether it names the repository in its site settings, in a trigger body or through a re-run.
 * GitHub is nock; the server, the database and the webhook signature are real.
 */
const GITHUB = 'https://api.github.com';
const SHA = 'c'.repeat(40);
const INSTALLATION = 4711;

/** The columns of a stored deploy event this test reads. */
interface DeployRow {
  id: string;
}

onlyFakeGitHub();

describe.each(dbKinds)('org ↔ installation binding (%s)', (db) => {
  // Org A's key is h.key; org B's is made below.
  const h = useHarness({ db, org: 'org-a', probot: testProbot(), env: { GITHUB_TIMEOUT_MS: '4000' } });
  let keyB: string;

  beforeAll(async () => {
    keyB = await h.createKey({ org: 'org-b' });
    for (const key of [h.key, keyB]) {
      const scan = await h.request('POST', '/api/v1/scans', {
        key,
        body: { url: 'https://shop.example/', siteId: 'shop', sha: SHA, pages: [{ url: '/', issues: [] }] },
      });
      expect(scan.status).toBe(201);
    }
  });

  /** GitHub says acme/shop belongs to installation 4711 (asked as the App, with its JWT). */
  const lookup = () =>
    nock(GITHUB)
      .get('/repos/acme/shop/installation')
      .matchHeader('authorization', /^bearer ey/i)
      .reply(200, { id: INSTALLATION, account: { login: 'acme' } });
  /** Any attempt to create a check run on acme/shop: it must never be made for org B. */
  const checkRunPost = () =>
    nock(GITHUB).post('/repos/acme/shop/check-runs').reply(201, { id: 1, html_url: 'https://x' });

  test('the admin links, lists and unlinks installations; an installation belongs to one org', async () => {
    const link = <T = InstallationLinkView>(org: string) =>
      h.request<T>('POST', '/api/v1/github/installations', {
        admin: true,
        body: { installation_id: 999, org },
      });
    expect((await link('org-a')).status).toBe(201);
    expect((await link('org-a')).status).toBe(200);
    const taken = await link<Problem>('org-b');
    expect([taken.status, taken.body.code]).toEqual([409, 'conflict']);
    const list = await h.request<InstallationLinkList>('GET', '/api/v1/github/installations', {
      admin: true,
    });
    expect(list.body.data).toEqual([
      { installation_id: 999, org: 'org-a', created_at: expect.any(String) as unknown },
    ]);
    // Org keys cannot manage links, not even their own org's.
    const byKey = await h.request('POST', '/api/v1/github/installations', {
      key: keyB,
      body: { installation_id: 999, org: 'org-b' },
    });
    expect(byKey.status).toBe(401);
    expect((await h.request('DELETE', '/api/v1/github/installations/999', { admin: true })).status).toBe(204);
    expect((await h.request('DELETE', '/api/v1/github/installations/999', { admin: true })).status).toBe(404);
  });

  test('site settings: only the linked org may set the repository (422 with the reason for the other)', async () => {
    const linked = await h.request('POST', '/api/v1/github/installations', {
      admin: true,
      body: { installation_id: INSTALLATION, org: 'org-a' },
    });
    expect(linked.status).toBe(201);
    const gh = lookup();
    const refused = await h.request<Problem>('PATCH', '/api/v1/sites/shop', {
      key: keyB,
      body: { repository: 'acme/shop' },
    });
    expect(gh.isDone()).toBe(true);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        pointer: '#/repository',
        detail: expect.stringMatching(/installation 4711, which is not linked to this org/) as unknown,
      },
    ]);
    expect((await h.request<Site>('GET', '/api/v1/sites/shop', { key: keyB })).body.repository).toBeNull();
    lookup();
    const accepted = await h.request<Site>('PATCH', '/api/v1/sites/shop', {
      key: h.key,
      body: { repository: 'acme/shop' },
    });
    expect([accepted.status, accepted.body.repository]).toEqual([200, 'acme/shop']);
    // A repository the App is not installed on is refused too.
    nock(GITHUB).get('/repos/acme/elsewhere/installation').reply(404, { message: 'Not Found' });
    const missing = await h.request<Problem>('PATCH', '/api/v1/sites/shop', {
      key: h.key,
      body: { repository: 'acme/elsewhere' },
    });
    expect(missing.body.errors![0].detail).toMatch(/not installed on acme\/elsewhere/);
  });

  test("the console's settings form: org B cannot set acme/shop either (the reason beside the field)", async () => {
    const c = new ConsoleClient(h.url);
    await c.signIn(keyB);
    const page = await c.get('/sites/shop');
    const gh = lookup();
    const refused = await c.post('/sites/shop/settings', {
      _csrf: ConsoleClient.csrfOf(page.text),
      repository: 'acme/shop',
      fail_on_critical: 'on',
      new_only: 'on',
    });
    expect(gh.isDone()).toBe(true);
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/installation 4711, which is not linked to this org/);
    expect(refused.text).toContain('id="repository-error"');
    expect((await h.request<Site>('GET', '/api/v1/sites/shop', { key: keyB })).body.repository).toBeNull();
  });

  test('trigger body: org B naming acme/shop gets no check run there', async () => {
    const gh = lookup();
    const post = checkRunPost();
    const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: keyB,
      body: { siteId: 'shop', sha: SHA, repository: 'acme/shop' },
    });
    expect(res.status).toBe(201);
    await deliverDue(h.server.service.ctx);
    expect(gh.isDone()).toBe(true);
    expect(post.isDone()).toBe(false);
    const event = await h.request<DeployEvent>('GET', `/api/v1/deploy/${res.body.id}`, { key: keyB });
    expect(event.body.check_run).toMatchObject({
      status: 'skipped',
      error: 'acme/shop belongs to GitHub installation 4711, which is not linked to org "org-b"',
    });
  });

  test("re-run: a check_run.rerequested naming org B's deploy event for acme/shop posts nothing", async () => {
    const first = lookup();
    const triggered = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: keyB,
      body: { siteId: 'shop', sha: SHA, repository: 'acme/shop' },
    });
    await deliverDue(h.server.service.ctx);
    expect(first.isDone()).toBe(true);

    const again = lookup();
    const post = checkRunPost();
    const res = await requestRerun(h.url, {
      deployId: triggered.body.id,
      sha: SHA,
      installation: INSTALLATION,
      delivery: 'tenancy-rerun',
    });
    expect(res.status).toBe(200);
    await deliverDue(h.server.service.ctx);
    expect(again.isDone()).toBe(true);
    expect(post.isDone()).toBe(false);
    const latest = (await h.db('deploys').where({ org: 'org-b' }).orderBy('created_at', 'desc').first()) as
      DeployRow | undefined;
    expect(latest!.id).not.toBe(triggered.body.id);
    const rerun = await h.request<DeployEvent>('GET', `/api/v1/deploy/${latest!.id}`, { key: keyB });
    expect(rerun.body.check_run).toMatchObject({
      status: 'skipped',
      error: expect.stringMatching(/not linked to org "org-b"/) as unknown,
    });
  });

  test("org A's own trigger does get its check run", async () => {
    const gh = lookup();
    const token = nock(GITHUB)
      .post(`/app/installations/${INSTALLATION}/access_tokens`)
      .reply(201, { token: 'ghs_a', expires_at: '2099-01-01T00:00:00Z', permissions: { checks: 'write' } });
    const post = checkRunPost();
    const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'shop', sha: SHA },
    });
    await deliverDue(h.server.service.ctx);
    expect([gh.isDone(), token.isDone(), post.isDone()]).toEqual([true, true, true]);
    const event = await h.request<DeployEvent>('GET', `/api/v1/deploy/${res.body.id}`, { key: h.key });
    expect(event.body.check_run.status).toBe('completed');
  });
});
