import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import type { CreatedScan } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { dbKinds, startHarness, useHarness } from '../helpers/harness.js';
import {
  APP_ID,
  capturingLogger,
  type CreatedCheckRun,
  PRIVATE_KEY_PEM,
  requestRerun,
  signWebhook,
  testProbot,
  type UpdatedCheckRun,
  WEBHOOK_SECRET,
  webhookExample,
} from '../fixtures/github/test-app.js';
import { onlyFakeGitHub } from '../helpers/github-network.js';
import { deliverDue } from '../helpers/outbox.js';

/**
 * The GitHub App through the real server: API triggers → check runs on a GitHub faked with nock, and signed
 * webhooks POSTed over HTTP to /api/github/webhooks. Only GitHub is fake; the database is real.
 */

const GITHUB = 'https://api.github.com';
const SHA = '1111111111111111111111111111111111111111';
const BASE_SHA = '2222222222222222222222222222222222222222';
const INSTALLATION = 4711;

interface IssueInput {
  rule: string;
  impact: 'critical' | 'serious' | 'moderate' | 'minor';
  selector: string;
  source?: { path: string; line: number };
}

/** `count` distinct issues with source locations: every other one critical. */
function manyIssues(count: number): IssueInput[] {
  return Array.from({ length: count }, (_, i) => ({
    rule: 'label',
    impact: i % 2 ? 'serious' : 'critical',
    selector: `#field-${i}`,
    source: { path: 'src/Checkout.tsx', line: i + 1 },
  }));
}

/** A GitHub request that answers only when the test says so (or never). */
function held() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { release, released };
}

onlyFakeGitHub();

describe.each(dbKinds)('GitHub App end to end (%s)', (db) => {
  const probotLog = capturingLogger();
  const h = useHarness({
    db,
    org: 'acme',
    probot: testProbot({ log: probotLog.logger }),
    // Short enough for the hang test, long enough that a loaded machine (the first publication signs a
    // JWT and exchanges a token) does not trip it: 1 s failed the 120-annotation test at load 7.8.
    env: { GITHUB_TIMEOUT_MS: '4000', GITHUB_INSTALLATIONS_ORG: 'acme' },
  });

  async function scan(siteId: string, sha: string, issues: IssueInput[], branch = 'feature') {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        url: 'https://shop.example.com/',
        siteId,
        sha,
        branch,
        pages: [{ url: '/checkout', title: 'Checkout', issues }],
      },
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function setRepository(siteId: string, repository: string | null, gate?: object) {
    const res = await h.request('PATCH', `/api/v1/sites/${siteId}`, {
      key: h.key,
      body: { repository, ...(gate ? { gate } : {}) },
    });
    expect(res.status).toBe(200);
  }

  async function trigger(body: Record<string, unknown>) {
    const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', { key: h.key, body });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function deploy(id: string) {
    const res = await h.request<DeployEvent>('GET', `/api/v1/deploy/${id}`, { key: h.key });
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Waits until every check run started so far has been posted (or given up). */
  const published = () => deliverDue(h.server.service.ctx);

  function github(owner: string, repo: string) {
    return nock(GITHUB)
      .get(`/repos/${owner}/${repo}/installation`)
      .matchHeader('authorization', /^bearer ey/i) // as the App (JWT), not as an installation
      .reply(200, { id: INSTALLATION, account: { login: owner } });
  }

  /**
   * The installation token exchange. Probot caches the token (for about an hour), so only the first
   * publication of this server asks for it; later ones may.
   */
  function installationToken(scope: nock.Scope, options: { required?: boolean } = {}) {
    const token = scope.post(`/app/installations/${INSTALLATION}/access_tokens`);
    if (!options.required) token.optionally();
    return token.reply(201, {
      token: 'ghs_e2e_installation',
      expires_at: '2099-01-01T00:00:00Z',
      permissions: { checks: 'write' },
    });
  }

  async function postWebhook(name: string, payload: object, signature?: string) {
    const body = JSON.stringify(payload);
    return fetch(`${h.url}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': name,
        'x-github-delivery': `delivery-${Math.random().toString(36).slice(2)}`,
        'x-hub-signature-256': signature ?? signWebhook(body),
      },
      body,
    });
  }

  async function deployCount(): Promise<number> {
    return Number((await h.db('deploys').count({ n: '*' }))[0].n);
  }

  test('a failed gate becomes a check run on the commit; annotations beyond 50 follow as updates', async () => {
    await scan('shop', SHA, manyIssues(120));
    await setRepository('shop', 'acme/shop');

    let created!: CreatedCheckRun;
    const updates: UpdatedCheckRun[] = [];
    const scope = installationToken(github('acme', 'shop'), { required: true })
      .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => ((created = body), true))
      .matchHeader('authorization', 'token ghs_e2e_installation')
      .reply(201, { id: 9001, html_url: 'https://github.com/acme/shop/runs/9001' })
      .patch('/repos/acme/shop/check-runs/9001', (body: UpdatedCheckRun) => (updates.push(body), true))
      .reply(200, { id: 9001 });

    const event = await trigger({ siteId: 'shop', sha: SHA });
    expect(event.passed).toBe(false);
    expect(event.check_run.status).toBe('pending');

    await published();
    expect(scope.isDone()).toBe(true);
    expect(created).toMatchObject({
      name: 'a11y-gate / shop',
      head_sha: SHA,
      status: 'completed',
      conclusion: 'failure',
      external_id: event.id,
      details_url: `${h.url}/deploys/${event.id}`,
      output: { title: '120 new accessibility issues (60 critical, 60 serious)' },
    });
    expect(created.output.summary).toContain('❌ Accessibility gate failed');
    expect(created.output.summary).toContain('| `fail_on_critical` | 0 | 60 | ❌ fail |');
    // A site with no scan of its base branch yet: the summary says so and what to do.
    expect(created.output.summary).toContain('No scan of main yet: every issue counts as new.');
    // The deploy event lists 100 new issues (with the total): the table says what it left out, and where
    // the rest are (not in the deploy event).
    expect(created.output.text).toContain('#### New issues (120)');
    expect(created.output.text).toContain(
      `_20 more new issues are not listed here, nor in the deploy event, which lists the first 100 of 120; the scan \`${event.scan_id}\` has every issue._`,
    );
    expect(created.output.annotations).toHaveLength(50);
    expect(created.output.annotations[0]).toMatchObject({
      path: 'src/Checkout.tsx',
      annotation_level: 'failure',
      title: 'label (critical)',
    });
    expect(updates).toHaveLength(1);
    expect(updates[0].output.annotations).toHaveLength(50);
    expect(updates[0].output.title).toBe(created.output.title);

    const after = await deploy(event.id);
    expect(after.check_run).toEqual({
      status: 'completed',
      id: 9001,
      url: 'https://github.com/acme/shop/runs/9001',
      error: null,
    });
  });

  test('a passing gate posts conclusion success; the repository may come from the trigger', async () => {
    const sha = '3333333333333333333333333333333333333333';
    await scan('docs', BASE_SHA, [{ rule: 'region', impact: 'moderate', selector: 'main' }], 'main');
    await scan('docs', sha, [{ rule: 'region', impact: 'moderate', selector: 'main' }]);
    let created!: CreatedCheckRun;
    const scope = installationToken(github('acme', 'docs'))
      .post('/repos/acme/docs/check-runs', (body: CreatedCheckRun) => ((created = body), true))
      .reply(201, { id: 9002, html_url: 'https://github.com/acme/docs/runs/9002' });

    const event = await trigger({ siteId: 'docs', sha, repository: 'acme/docs' });
    await published();
    expect(scope.isDone()).toBe(true);
    expect(event.passed).toBe(true);
    expect(created).toMatchObject({
      name: 'a11y-gate / docs',
      head_sha: sha,
      conclusion: 'success',
      output: { title: 'No new accessibility issues', annotations: [] },
    });
    expect(created.output.summary).toContain(`Compared with scan \`${event.baseline!.scan_id}\``);
    expect((await deploy(event.id)).check_run.status).toBe('completed');
  });

  test.each([
    ['answers 500', 500],
    // The installation exists but creating the run is 404 (e.g. the App lost access): failed, not skipped.
    ['answers 404 to the check run', 404],
    ['refuses the run (422)', 422],
  ])(
    'GitHub %s: the trigger still answers 201; the event records failed with the reason',
    async (_, code) => {
      await scan('shop', SHA, manyIssues(2));
      await setRepository('shop', 'acme/shop');
      const scope = installationToken(github('acme', 'shop'))
        .post('/repos/acme/shop/check-runs')
        .reply(code, { message: 'Something went wrong on GitHub' });

      const event = await trigger({ siteId: 'shop', sha: SHA });
      expect(event.check_run.status).toBe('pending');
      await published();
      expect(scope.isDone()).toBe(true);
      const after = await deploy(event.id);
      expect(after.check_run.status).toBe('failed');
      expect(after.check_run.error).toContain(`GitHub answered ${code}`);
      expect(after.check_run.error).toContain('acme/shop');
      expect(after.check_run.id).toBeNull();
    },
  );

  test('GitHub not answering: the trigger answers while GitHub still hangs; then failed (deadline)', async () => {
    await scan('shop', SHA, manyIssues(1));
    await setRepository('shop', 'acme/shop');
    const hang = held();
    nock(GITHUB)
      .get('/repos/acme/shop/installation')
      .reply((_uri, _body, callback) => {
        void hang.released.then(() => callback(null, [200, { id: INSTALLATION }]));
      });

    const event = await trigger({ siteId: 'shop', sha: SHA });
    // The answer came back although GitHub has not answered (it never will): posting is off the
    // request's path.
    expect(event.check_run.status).toBe('pending');

    await published();
    const after = await deploy(event.id);
    expect(after.check_run.status).toBe('failed');
    expect(after.check_run.error).toContain('no answer from GitHub within 4000 ms');
    hang.release();
  });

  test('the App is not installed on the repository (404): skipped with the reason', async () => {
    await scan('private-site', SHA, manyIssues(1));
    await setRepository('private-site', 'acme/private');
    const scope = nock(GITHUB).get('/repos/acme/private/installation').reply(404, { message: 'Not Found' });
    const event = await trigger({ siteId: 'private-site', sha: SHA });
    await published();
    expect(scope.isDone()).toBe(true);
    expect((await deploy(event.id)).check_run).toMatchObject({
      status: 'skipped',
      error: 'no installation for acme/private',
    });
  });

  test('no repository on the site or the trigger: skipped, and GitHub is not called', async () => {
    await scan('no-repo', SHA, manyIssues(1));
    const event = await trigger({ siteId: 'no-repo', sha: SHA });
    expect(event.check_run.status).toBe('skipped');
    expect(event.check_run.error).toMatch(/repository/i);
    await published();
    expect((await deploy(event.id)).check_run.status).toBe('skipped');
    expect(nock.pendingMocks()).toEqual([]);
  });

  test('check_run.rerequested (signed, over HTTP): a new deploy event with the original thresholds and a new check run', async () => {
    const sha = '4444444444444444444444444444444444444444';
    await scan('rerun', sha, manyIssues(3));
    await setRepository('rerun', 'acme/shop');
    // The first run: explicit thresholds that differ from the site's defaults.
    let first!: CreatedCheckRun;
    installationToken(github('acme', 'shop'))
      .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => ((first = body), true))
      .reply(201, { id: 9100, html_url: 'https://github.com/acme/shop/runs/9100' });
    const original = await trigger({ siteId: 'rerun', sha, fail_on_critical: false, max_total: 10 });
    await published();
    expect(original.passed).toBe(true);
    expect(first.conclusion).toBe('success');

    // The site's defaults change afterwards; a re-run must keep the original event's thresholds.
    await setRepository('rerun', 'acme/shop', { fail_on_critical: true, max_total: 0 });

    let second!: CreatedCheckRun;
    const scope = installationToken(github('acme', 'shop'))
      .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => ((second = body), true))
      .reply(201, { id: 9101, html_url: 'https://github.com/acme/shop/runs/9101' });

    const payload = webhookExample('check_run', 'rerequested');
    payload.check_run.name = 'a11y-gate / rerun';
    payload.check_run.external_id = original.id;
    payload.check_run.head_sha = sha;
    payload.check_run.id = 9100;
    payload.repository.full_name = 'acme/shop';
    payload.repository.name = 'shop';
    payload.repository.owner.login = 'acme';
    payload.installation!.id = INSTALLATION;
    const before = await deployCount();
    const res = await postWebhook('check_run', payload);
    expect(res.status).toBe(200);
    await published();

    expect(scope.isDone()).toBe(true);
    expect(await deployCount()).toBe(before + 1);
    expect(second.external_id).not.toBe(original.id);
    expect(second).toMatchObject({ name: 'a11y-gate / rerun', head_sha: sha, conclusion: 'success' });
    const rerun = await deploy(second.external_id);
    expect(rerun.settings).toEqual(original.settings);
    expect(rerun.settings).toMatchObject({ fail_on_critical: false, max_total: 10 });
    expect(rerun.check_run).toMatchObject({ status: 'completed', id: 9101 });
  });

  test('check_run.rerequested naming a deploy event of another repository re-runs nothing', async () => {
    const sha = '5555555555555555555555555555555555555555';
    await scan('other', sha, manyIssues(1));
    await setRepository('other', 'acme/shop');
    installationToken(github('acme', 'shop'))
      .post('/repos/acme/shop/check-runs')
      .reply(201, { id: 9200, html_url: 'u' });
    const original = await trigger({ siteId: 'other', sha });
    await published();

    const payload = webhookExample('check_run', 'rerequested');
    payload.check_run.name = 'a11y-gate / other';
    payload.check_run.external_id = original.id;
    payload.repository.full_name = 'mallory/elsewhere';
    const before = await deployCount();
    expect((await postWebhook('check_run', payload)).status).toBe(200);
    await published();
    expect(await deployCount()).toBe(before);
  });

  test('check_suite.rerequested: the latest gate run of the suite is re-run and posted again', async () => {
    const sha = '6666666666666666666666666666666666666666';
    await scan('suite', sha, manyIssues(2));
    await setRepository('suite', 'acme/shop');
    installationToken(github('acme', 'shop'))
      .post('/repos/acme/shop/check-runs')
      .reply(201, { id: 9300, html_url: 'u' });
    const original = await trigger({ siteId: 'suite', sha });
    await published();

    const payload = webhookExample('check_suite', 'rerequested');
    payload.check_suite.head_sha = sha;
    payload.repository.full_name = 'acme/shop';
    payload.repository.name = 'shop';
    payload.repository.owner.login = 'acme';
    payload.installation!.id = INSTALLATION;
    let second!: CreatedCheckRun;
    // Listing the suite (as the installation of the event), then posting the new run.
    const listing = installationToken(nock(GITHUB))
      .get(`/repos/acme/shop/check-suites/${payload.check_suite.id}/check-runs`)
      .query(true)
      .reply(200, {
        total_count: 2,
        check_runs: [
          { id: 9300, name: 'a11y-gate / suite', external_id: original.id },
          { id: 9301, name: 'build', external_id: 'not-ours' },
        ],
      });
    const posting = installationToken(github('acme', 'shop'))
      .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => ((second = body), true))
      .reply(201, { id: 9302, html_url: 'https://github.com/acme/shop/runs/9302' });

    const res = await postWebhook('check_suite', payload);
    expect(res.status).toBe(200);
    await published();
    expect(listing.isDone()).toBe(true);
    expect(posting.isDone()).toBe(true);
    expect(second).toMatchObject({ name: 'a11y-gate / suite', head_sha: sha, conclusion: 'failure' });
    expect(second.external_id).not.toBe(original.id);
    expect((await deploy(second.external_id)).settings).toEqual(original.settings);
  });

  test('installation.created is logged; an unknown event answers 200 and does nothing', async () => {
    const before = await deployCount();
    const installation = webhookExample('installation', 'created');
    expect((await postWebhook('installation', installation)).status).toBe(200);
    expect(probotLog.lines.find((l) => l.msg === 'installation event')).toMatchObject({
      action: 'created',
      installation: installation.installation.id,
      account: 'Codertocat',
    });

    const res = await postWebhook('star', { action: 'created', starred_at: null, sender: { login: 'x' } });
    expect(res.status).toBe(200);
    expect(await deployCount()).toBe(before);
    expect(nock.pendingMocks()).toEqual([]);
  });

  test('a webhook body above the limit, or of unknown length, is refused before it is read', async () => {
    const send = (headers: Record<string, string | number>) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(`${h.url}/api/github/webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-github-event': 'check_run', ...headers },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.write('{"action":');
      });
    expect(await send({ 'content-length': 26 * 1024 * 1024 })).toBe(413);
    expect(await send({ 'transfer-encoding': 'chunked' })).toBe(411);
  });

  test('a delivery with a bad signature is refused and does nothing', async () => {
    const payload = webhookExample('check_run', 'rerequested');
    payload.check_run.name = 'a11y-gate / shop';
    payload.check_run.external_id = 'dep_whatever';
    const before = await deployCount();
    const forged = signWebhook(JSON.stringify(payload), 'not-the-secret');
    const res = await postWebhook('check_run', payload, forged);
    expect(res.status).toBe(400);
    const missing = await fetch(`${h.url}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'check_run',
        'x-github-delivery': '1',
      },
      body: JSON.stringify(payload),
    });
    expect(missing.status).toBe(400);
    expect(await deployCount()).toBe(before);
  });
});

describe.each(dbKinds)('without the GitHub App (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  test('a deploy event with a repository records its check run as skipped; nothing listens for webhooks', async () => {
    const scanRes = await h.request('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        url: 'https://shop.example.com/',
        siteId: 'shop',
        sha: SHA,
        pages: [{ url: '/', issues: [{ rule: 'image-alt', impact: 'critical', selector: 'img' }] }],
      },
    });
    expect(scanRes.status).toBe(201);
    const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'shop', sha: SHA, repository: 'acme/shop' },
    });
    expect(res.status).toBe(201);
    expect(res.body.check_run).toMatchObject({ status: 'skipped', id: null, url: null });
    expect(res.body.check_run.error).toMatch(/not configured/i);
    expect(await h.db('webhook_deliveries').where({ target: 'github' })).toEqual([]);
    expect(nock.pendingMocks()).toEqual([]);

    const hook = await fetch(`${h.url}/api/github/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'ping' },
      body: '{}',
    });
    expect(hook.status).toBe(404);
  });
});

describe.each(dbKinds)('details_url with PUBLIC_URL (%s)', (db) => {
  test('check runs link to the console’s deploy page under PUBLIC_URL, from a trigger and from a re-run webhook', async () => {
    const h = await startHarness({
      db,
      probot: testProbot(),
      env: { PUBLIC_URL: 'https://a11y.corp.example/', GITHUB_INSTALLATIONS_ORG: 'acme' },
    });
    try {
      const key = await h.createKey({ org: 'acme' });
      await h.request('POST', '/api/v1/scans', {
        key,
        body: {
          url: 'https://shop.example.com/',
          siteId: 'shop',
          sha: SHA,
          pages: [{ url: '/', issues: [] }],
        },
      });
      const runs: CreatedCheckRun[] = [];
      nock(GITHUB)
        .get('/repos/acme/shop/installation')
        .times(2)
        .reply(200, { id: INSTALLATION })
        .post(`/app/installations/${INSTALLATION}/access_tokens`)
        .times(2)
        .reply(201, { token: 'ghs_x', expires_at: '2099-01-01T00:00:00Z' })
        .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => (runs.push(body), true))
        .times(2)
        .reply(201, { id: 1, html_url: 'u' });
      const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
        key,
        body: { siteId: 'shop', sha: SHA, repository: 'acme/shop' },
      });
      await deliverDue(h.server.service.ctx);
      const page = `https://a11y.corp.example/deploys/${res.body.id}`;
      expect(runs[0].details_url).toBe(page);
      expect(runs[0].output.summary).toContain(`[\`${res.body.id}\`](${page})`);

      // GitHub's own re-run request (a real webhook payload), naming the check run posted above.
      const hook = await requestRerun(h.url, {
        deployId: res.body.id,
        sha: SHA,
        installation: INSTALLATION,
        delivery: 'delivery-public-url',
      });
      expect(hook.status).toBe(200);
      await deliverDue(h.server.service.ctx);
      expect(runs).toHaveLength(2);
      expect(runs[1].external_id).not.toBe(res.body.id);
      expect(runs[1].details_url).toBe(`https://a11y.corp.example/deploys/${runs[1].external_id}`);
      // The link opens the console: without a session, its sign-in page, which then goes to the deploy event.
      const opened = await fetch(`${h.url}/deploys/${runs[1].external_id}`, { redirect: 'manual' });
      expect(opened.headers.get('location')).toBe(
        `/sign-in?next=${encodeURIComponent(`/deploys/${runs[1].external_id}`)}`,
      );
    } finally {
      await h.close();
    }
  });
});

describe.each(dbKinds)('graceful shutdown (%s)', (db) => {
  test('closing the server waits for check runs still being posted before the database closes', async () => {
    const h1 = await startHarness({
      db,
      probot: testProbot(),
      startJobs: true,
      env: { GITHUB_INSTALLATIONS_ORG: 'acme', WEBHOOK_WORKER: 'true', WEBHOOK_POLL_MS: '50' },
    });
    const key = await h1.createKey({ org: 'acme' });
    await h1.request('POST', '/api/v1/scans', {
      key,
      body: { url: 'https://shop.example.com/', siteId: 'shop', sha: SHA, pages: [{ url: '/', issues: [] }] },
    });
    const hang = held();
    const scope = nock(GITHUB)
      .get('/repos/acme/shop/installation')
      .reply((_uri, _body, callback) => {
        void hang.released.then(() => callback(null, [200, { id: INSTALLATION }]));
      })
      .post(`/app/installations/${INSTALLATION}/access_tokens`)
      .reply(201, { token: 'ghs_x', expires_at: '2099-01-01T00:00:00Z' })
      .post('/repos/acme/shop/check-runs')
      .reply(201, { id: 77, html_url: 'https://github.com/acme/shop/runs/77' });
    const res = await h1.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key,
      body: { siteId: 'shop', sha: SHA, repository: 'acme/shop' },
    });
    expect(res.body.check_run.status).toBe('pending');
    // The delivery worker has taken the decision's GitHub delivery and waits for GitHub.
    while (
      !(await h1.db('webhook_deliveries').where({ target: 'github' }).whereNotNull('locked_by').first())
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // SIGTERM while GitHub is still answering: the publication finishes and is recorded before close.
    const closing = h1.close({ keepData: true });
    hang.release();
    await closing;
    expect(scope.isDone()).toBe(true);

    const h2 = await startHarness({ db, dataDir: h1.dataDir, schema: h1.schema });
    try {
      const after = await h2.request<DeployEvent>('GET', `/api/v1/deploy/${res.body.id}`, { key });
      expect(after.body.check_run).toMatchObject({ status: 'completed', id: 77 });
    } finally {
      await h2.close();
      fs.rmSync(h1.dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(dbKinds)('the App configured from the environment (%s)', (db) => {
  // What `npm start` does: Probot built from APP_ID, the key and WEBHOOK_SECRET; GitHub Enterprise Server
  // (or any fake) through GITHUB_API_URL.
  const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-app-key-')), 'app.pem');
  fs.writeFileSync(keyFile, PRIVATE_KEY_PEM, { mode: 0o600 });

  test.each([
    ['PRIVATE_KEY with \\n escapes', { PRIVATE_KEY: PRIVATE_KEY_PEM.replace(/\n/g, '\\n') }],
    ['PRIVATE_KEY_PATH', { PRIVATE_KEY_PATH: keyFile }],
  ])('%s: check runs go to GITHUB_API_URL, webhooks are checked with WEBHOOK_SECRET', async (_, keyEnv) => {
    const h = await startHarness({
      db,
      env: {
        APP_ID: String(APP_ID),
        WEBHOOK_SECRET,
        GITHUB_INSTALLATIONS_ORG: 'acme',
        GITHUB_API_URL: 'https://ghe.example.com/api/v3',
        ...keyEnv,
      },
    });
    try {
      const key = await h.createKey({ org: 'acme' });
      await h.request('POST', '/api/v1/scans', {
        key,
        body: {
          url: 'https://shop.example.com/',
          siteId: 'shop',
          sha: SHA,
          pages: [{ url: '/', issues: [] }],
        },
      });
      let created!: CreatedCheckRun;
      const ghe = nock('https://ghe.example.com/api/v3')
        .get('/repos/acme/shop/installation')
        .reply(200, { id: INSTALLATION })
        .post(`/app/installations/${INSTALLATION}/access_tokens`)
        .reply(201, { token: 'ghs_ghe', expires_at: '2099-01-01T00:00:00Z' })
        .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => ((created = body), true))
        .reply(201, { id: 3, html_url: 'https://ghe.example.com/acme/shop/runs/3' });
      const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
        key,
        body: { siteId: 'shop', sha: SHA, repository: 'acme/shop' },
      });
      expect(res.status).toBe(201);
      expect(res.body.check_run.status).toBe('pending');
      await deliverDue(h.server.service.ctx);
      expect(ghe.isDone()).toBe(true);
      expect(created).toMatchObject({ name: 'a11y-gate / shop', head_sha: SHA, conclusion: 'success' });
      const after = await h.request<DeployEvent>('GET', `/api/v1/deploy/${res.body.id}`, { key });
      expect(after.body.check_run).toMatchObject({ status: 'completed', id: 3 });

      const body = JSON.stringify(webhookExample('installation', 'created'));
      const deliver = (signature: string) =>
        fetch(`${h.url}/api/github/webhooks`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-github-event': 'installation',
            'x-github-delivery': 'd-1',
            'x-hub-signature-256': signature,
          },
          body,
        });
      expect((await deliver(signWebhook(body))).status).toBe(200);
      expect((await deliver(signWebhook(body, 'another-secret'))).status).toBe(400);
    } finally {
      await h.close();
    }
  });
});
