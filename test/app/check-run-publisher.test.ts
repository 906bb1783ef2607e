import nock from 'nock';
import pino from 'pino';
import { createCheckRunPublisher } from '../../app/check-run-publisher.js';
import type { DeployPublication, PublicationOutcome } from '../../api/index.js';
import { type CheckRunUpdate } from '../../core/github/check-run.js';
import { type GateIssue, type GateResult } from '../../core/gate/deploy-event.js';
import { byImpact, gateIssue, gateResultOf } from '../helpers/gate-result.js';
import type { CheckRunAnnotation } from '../../app/check-run-payload.js';
import { testProbot, type CreatedCheckRun, type UpdatedCheckRun } from '../fixtures/github/test-app.js';
import type { operations } from '@octokit/openapi-types';

type GitHubCreateCheckRun = operations['checks/create']['requestBody']['content']['application/json'];

const GITHUB = 'https://api.github.com';
const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';

function gateResult(extra: Partial<GateResult> = {}): GateResult {
  return gateResultOf(
    {
      id: 'dep_test1',
      siteId: 'shop-web',
      sha: SHA,
      passed: false,
      reasons: [{ code: 'critical_issues', message: 'new critical issues: 1 > 0' }],
      scan_id: 'scn_head',
      baseline: { scan_id: null, sha: null, strategy: 'none', reason: '' },
      counts: { new: 3, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({ critical: 1, serious: 2 }) },
      thresholds: [{ name: 'fail_on_critical', limit: 0, actual: 1, passed: false }],
      new_issues: [
        gateIssue({ rule: 'image-alt', impact: 'critical', selector: 'img.hero' }),
        gateIssue({ rule: 'color-contrast', impact: 'serious', selector: '.price' }),
        gateIssue({ rule: 'color-contrast', impact: 'serious', selector: '.total' }),
      ],
    },
    extra,
  );
}

/** A deploy event as its GitHub delivery hands it to the publisher (what the tests leave out: defaults). */
type Stored = Pick<DeployPublication, 'org' | 'repository' | 'result'> & Partial<DeployPublication>;

/** The deploy events the tests publish, and the check-run states the publisher records for them. */
class FakeDeploys {
  deploys = new Map<string, Stored>();
  states = new Map<string, CheckRunUpdate>();
}

function setup(
  options: { baseUrl?: string; publicUrl?: string; timeoutMs?: number; linkedOrg?: string } = {},
) {
  const deploys = new FakeDeploys();
  const publishOnce = createCheckRunPublisher({
    probot: testProbot({ baseUrl: options.baseUrl }),
    logger: pino({ level: 'silent' }),
    baseUrl: () => options.publicUrl ?? 'https://gate.example',
    timeoutMs: options.timeoutMs,
    installationOrg: () => Promise.resolve(options.linkedOrg ?? 'acme'),
  });
  const publisher = {
    /** One attempt of the event's GitHub delivery; answers the check-run state it came to. */
    async publish(id: string): Promise<CheckRunUpdate> {
      return (await publisher.attempt(id)).checkRun;
    },
    /** One attempt of the event's GitHub delivery; answers what it came to. */
    async attempt(id: string): Promise<PublicationOutcome> {
      const stored = deploys.deploys.get(id)!;
      const deploy: DeployPublication = {
        pullRequest: null,
        prComment: true,
        pictures: new Map(),
        checkRun: { status: 'pending' },
        ...stored,
      };
      const outcome = await publishOnce(deploy, (state) => {
        deploys.states.set(id, state);
        return Promise.resolve();
      });
      return outcome;
    },
  };
  return { deploys, publisher };
}

function installationToken(scope: nock.Scope, installationId = 77) {
  return scope.post(`/app/installations/${installationId}/access_tokens`).reply(201, {
    token: 'ghs_installation',
    expires_at: '2099-01-01T00:00:00Z',
    permissions: { checks: 'write' },
  });
}

beforeAll(() => {
  nock.disableNetConnect();
});
afterEach(() => {
  nock.abortPendingRequests();
  nock.cleanAll();
});
afterAll(() => {
  nock.enableNetConnect();
});

describe('check-run publisher', () => {
  test('never posts to a repository whose installation is linked to another org', async () => {
    const { deploys, publisher } = setup({ linkedOrg: 'acme' });
    deploys.deploys.set('dep_test1', { org: 'intruder', repository: 'acme/shop', result: gateResult() });
    const github = nock(GITHUB)
      .get('/repos/acme/shop/installation')
      .reply(200, { id: 77, account: { login: 'acme' } });
    const create = nock(GITHUB).post('/repos/acme/shop/check-runs').reply(201, { id: 1 });
    const state = await publisher.publish('dep_test1');
    expect(github.isDone()).toBe(true);
    expect(create.isDone()).toBe(false);
    expect(state).toEqual({
      status: 'skipped',
      error: 'acme/shop belongs to GitHub installation 77, which is not linked to org "intruder"',
    });
    expect(deploys.states.get('dep_test1')).toEqual(state);
  });

  test('finds the installation and creates the check run with the exact payload', async () => {
    const { deploys, publisher } = setup();
    deploys.deploys.set('dep_test1', { org: 'acme', repository: 'acme/shop', result: gateResult() });
    let created!: CreatedCheckRun;
    const github = nock(GITHUB)
      .get('/repos/acme/shop/installation')
      .matchHeader('authorization', /^bearer ey/i) // the App's JWT, not an installation token
      .reply(200, { id: 77, account: { login: 'acme' } });
    installationToken(github)
      .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => ((created = body), true))
      .matchHeader('authorization', 'token ghs_installation')
      .reply(201, { id: 9001, html_url: 'https://github.com/acme/shop/runs/9001' });

    const state = await publisher.publish('dep_test1');

    expect(github.isDone()).toBe(true);
    expect(state).toEqual({ status: 'completed', id: 9001, url: 'https://github.com/acme/shop/runs/9001' });
    expect(deploys.states.get('dep_test1')).toEqual(state);
    expect(created).toMatchObject({
      name: 'a11y-gate / shop-web',
      head_sha: SHA,
      external_id: 'dep_test1',
      details_url: 'https://gate.example/deploys/dep_test1',
      status: 'completed',
      conclusion: 'failure',
      output: { title: '3 new accessibility issues (1 critical, 2 serious)', annotations: [] },
    });
    expect(created.output.summary).toContain('❌ Accessibility gate failed');
    expect(created.output.summary).toContain('| `fail_on_critical` | 0 | 1 | ❌ fail |');
    expect(created.output.text).toContain('#### New issues (3)');
    expect(created.completed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  test('120 annotations: 50 with the create request, then updates of 50 and 20', async () => {
    const { deploys, publisher } = setup();
    const issues: GateIssue[] = Array.from({ length: 120 }, (_, i) =>
      gateIssue({
        rule: 'label',
        impact: i % 2 ? 'serious' : 'minor',
        selector: `#field-${i}`,
        source: { path: 'src/Form.tsx', line: i + 1, column: null, method: null },
      }),
    );
    const result = gateResult({
      new_issues: issues,
      counts: { new: 120, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({ serious: 60, minor: 60 }) },
    });
    deploys.deploys.set('dep_test1', { org: 'acme', repository: 'acme/shop', result });
    const batches: CheckRunAnnotation[][] = [];
    const updates: UpdatedCheckRun[] = [];
    const github = nock(GITHUB).get('/repos/acme/shop/installation').reply(200, { id: 77 });
    installationToken(github)
      .post(
        '/repos/acme/shop/check-runs',
        (body: CreatedCheckRun) => (batches.push(body.output.annotations), true),
      )
      .reply(201, { id: 9002, html_url: 'https://github.com/acme/shop/runs/9002' })
      .patch(
        '/repos/acme/shop/check-runs/9002',
        (body: UpdatedCheckRun) => (updates.push(body), batches.push(body.output.annotations), true),
      )
      .times(2)
      .reply(200, { id: 9002 });

    const state = await publisher.publish('dep_test1');
    expect(state.status).toBe('completed');
    expect(github.isDone()).toBe(true);
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
    expect(batches.flat().map((a) => a.start_line)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(batches[0][0]).toMatchObject({
      path: 'src/Form.tsx',
      annotation_level: 'warning',
      title: 'label (minor)',
    });
    expect(batches[0][1]).toMatchObject({ annotation_level: 'failure', title: 'label (serious)' });
    for (const u of updates) {
      // Updates carry the output again (GitHub requires title and summary with annotations).
      expect(u.output.title).toBe('120 new accessibility issues (60 serious)');
      expect(u.output.summary).toContain('Accessibility gate failed');
      expect(u.output.text).toContain('#### New issues (120)');
    }
  });

  test("element screenshots: the new issues' signed links go as output.images (at most 50) with the create request only", async () => {
    const { deploys, publisher } = setup();
    const issues: GateIssue[] = Array.from({ length: 60 }, (_, i) =>
      gateIssue({
        rule: 'button-name',
        impact: 'critical',
        selector: `#buy-${i}`,
        fingerprint: `fp-${i}`,
        source: { path: 'src/Buy.tsx', line: i + 1, column: null, method: null },
      }),
    );
    const pictures = new Map(
      issues.map((issue, i) => [
        issue.fingerprint,
        {
          alt: `Screenshot of the element #buy-${i} that fails the rule button-name`,
          // One issue's picture has no public link (a service without PUBLIC_URL): left out.
          url:
            i === 1 ? undefined : `https://gate.example/screenshots/img_${i}.png?expires=9&signature=s${i}`,
        },
      ]),
    );
    const result = gateResult({
      new_issues: issues,
      counts: { new: 60, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({ critical: 60 }) },
    });
    deploys.deploys.set('dep_test1', { org: 'acme', repository: 'acme/shop', result, pictures });
    let created!: CreatedCheckRun;
    const updates: UpdatedCheckRun[] = [];
    const github = nock(GITHUB).get('/repos/acme/shop/installation').reply(200, { id: 77 });
    installationToken(github)
      .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => ((created = body), true))
      .reply(201, { id: 9003, html_url: 'https://github.com/acme/shop/runs/9003' })
      .patch('/repos/acme/shop/check-runs/9003', (body: UpdatedCheckRun) => (updates.push(body), true))
      .reply(200, { id: 9003 });
    expect((await publisher.publish('dep_test1')).status).toBe('completed');
    expect(github.isDone()).toBe(true);
    // The request body as GitHub's REST description types it.
    const body: GitHubCreateCheckRun = created;
    const images = body.output!.images!;
    expect(images).toHaveLength(50);
    expect(images[0]).toEqual({
      alt: 'Screenshot of the element #buy-0 that fails the rule button-name',
      image_url: 'https://gate.example/screenshots/img_0.png?expires=9&signature=s0',
      caption: 'button-name (critical): #buy-0 on https://shop.example/',
    });
    expect(images.map((i) => i.image_url)).not.toContain(expect.stringContaining('img_1.png'));
    expect(images[49].image_url).toContain('img_50.png');
    expect(updates).toHaveLength(1);
    expect(updates[0].output).not.toHaveProperty('images');
  });

  test('no installation for the repository: skipped with the reason', async () => {
    const { deploys, publisher } = setup();
    deploys.deploys.set('dep_test1', { org: 'acme', repository: 'acme/private', result: gateResult() });
    const github = nock(GITHUB).get('/repos/acme/private/installation').reply(404, { message: 'Not Found' });
    const state = await publisher.publish('dep_test1');
    expect(github.isDone()).toBe(true);
    expect(state).toEqual({ status: 'skipped', error: 'no installation for acme/private' });
    expect(deploys.states.get('dep_test1')).toEqual(state);
  });

  test.each([500, 404, 422])(
    'GitHub answering %i to the create request: failed with the reason',
    async (status) => {
      const { deploys, publisher } = setup();
      deploys.deploys.set('dep_test1', { org: 'acme', repository: 'acme/shop', result: gateResult() });
      const github = nock(GITHUB).get('/repos/acme/shop/installation').reply(200, { id: 77 });
      installationToken(github)
        .post('/repos/acme/shop/check-runs')
        .reply(status, { message: 'Boom from GitHub' });
      const state = await publisher.publish('dep_test1');
      expect(github.isDone()).toBe(true);
      expect(state.status).toBe('failed');
      expect(state.error).toContain(`GitHub answered ${status}`);
      expect(state.error).toContain('acme/shop');
      expect(state.id).toBeUndefined();
      expect(deploys.states.get('dep_test1')).toEqual(state);
    },
  );

  test('installation lookup failing with 500: failed, not skipped', async () => {
    const { deploys, publisher } = setup();
    deploys.deploys.set('dep_test1', { org: 'acme', repository: 'acme/shop', result: gateResult() });
    nock(GITHUB).get('/repos/acme/shop/installation').reply(500, { message: 'down' });
    const state = await publisher.publish('dep_test1');
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(/installation lookup for acme\/shop: GitHub answered 500/);
  });

  test('a failing annotation batch keeps the created run id and marks the publication failed', async () => {
    const { deploys, publisher } = setup();
    const issues: GateIssue[] = Array.from({ length: 60 }, (_, i) =>
      gateIssue({
        rule: 'label',
        impact: 'serious',
        source: { path: 'a.html', line: i + 1, column: null, method: null },
      }),
    );
    deploys.deploys.set('dep_test1', {
      org: 'acme',
      repository: 'acme/shop',
      result: gateResult({ new_issues: issues }),
    });
    const github = nock(GITHUB).get('/repos/acme/shop/installation').reply(200, { id: 77 });
    installationToken(github)
      .post('/repos/acme/shop/check-runs')
      .reply(201, { id: 9003, html_url: 'https://github.com/acme/shop/runs/9003' })
      .patch('/repos/acme/shop/check-runs/9003')
      .reply(502, { message: 'Bad gateway' });
    const state = await publisher.publish('dep_test1');
    expect(state).toMatchObject({
      status: 'failed',
      id: 9003,
      url: 'https://github.com/acme/shop/runs/9003',
    });
    expect(state.error).toContain('GitHub answered 502');
  });

  test('no repository, or a malformed one: skipped without calling GitHub', async () => {
    const { deploys, publisher } = setup();
    deploys.deploys.set('dep_a', { org: 'acme', repository: null, result: gateResult({ id: 'dep_a' }) });
    deploys.deploys.set('dep_b', {
      org: 'acme',
      repository: 'not a repo',
      result: gateResult({ id: 'dep_b' }),
    });
    expect(await publisher.publish('dep_a')).toEqual({ status: 'skipped', error: 'no repository' });
    expect((await publisher.publish('dep_b')).status).toBe('skipped');
    expect(nock.pendingMocks()).toEqual([]);
  });

  test('an event the gate already settled (skipped, or published before) is not posted again', async () => {
    const { deploys, publisher } = setup();
    const skipped = { status: 'skipped' as const, error: 'The GitHub App is not configured on this server.' };
    const done = { status: 'completed' as const, id: 5, url: 'https://github.com/acme/shop/runs/5' };
    deploys.deploys.set('dep_a', {
      org: 'acme',
      repository: 'acme/shop',
      result: gateResult(),
      checkRun: skipped,
    });
    deploys.deploys.set('dep_b', {
      org: 'acme',
      repository: 'acme/shop',
      result: gateResult(),
      checkRun: done,
    });
    expect(await publisher.publish('dep_a')).toEqual(skipped);
    expect(await publisher.publish('dep_b')).toEqual(done);
    expect(deploys.states.size).toBe(0);
  });

  test('GitHub Enterprise Server: every request goes to the configured base URL', async () => {
    const { deploys, publisher } = setup({
      baseUrl: 'https://ghe.example/api/v3',
      publicUrl: 'https://a11y.corp',
    });
    deploys.deploys.set('dep_test1', {
      org: 'acme',
      repository: 'acme/shop',
      result: gateResult({ passed: true, reasons: [] }),
    });
    let created!: CreatedCheckRun;
    const ghe = nock('https://ghe.example/api/v3').get('/repos/acme/shop/installation').reply(200, { id: 5 });
    installationToken(ghe, 5)
      .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => ((created = body), true))
      .reply(201, { id: 1, html_url: 'https://ghe.example/acme/shop/runs/1' });
    const state = await publisher.publish('dep_test1');
    expect(ghe.isDone()).toBe(true);
    expect(state.status).toBe('completed');
    expect(created.conclusion).toBe('success');
    expect(created.details_url).toBe('https://a11y.corp/deploys/dep_test1');
  });

  test.each(['the installation lookup', 'the check run'])(
    'GitHub not answering %s: failed with the reason once the deadline passes',
    async (which) => {
      const { deploys, publisher } = setup({ timeoutMs: 300 });
      deploys.deploys.set('dep_test1', { org: 'acme', repository: 'acme/shop', result: gateResult() });
      const github = nock(GITHUB).get('/repos/acme/shop/installation');
      if (which === 'the installation lookup') {
        github.delay(5_000).reply(200, { id: 77 });
      } else {
        installationToken(github.reply(200, { id: 77 }))
          .post('/repos/acme/shop/check-runs')
          .delay(5_000)
          .reply(201, { id: 1, html_url: 'u' });
      }
      const state = await publisher.publish('dep_test1');
      expect(state.status).toBe('failed');
      expect(state.error).toContain('no answer from GitHub within 300 ms');
      expect(deploys.states.get('dep_test1')).toEqual(state);
    },
  );

  test('an attempt after one that created the run updates that run; it never creates a second one', async () => {
    const { deploys, publisher } = setup();
    const earlier = { status: 'failed' as const, id: 9003, url: 'https://github.com/acme/shop/runs/9003' };
    deploys.deploys.set('dep_test1', {
      org: 'acme',
      repository: 'acme/shop',
      result: gateResult(),
      checkRun: earlier,
    });
    let updated!: CreatedCheckRun;
    const lookup = nock(GITHUB).get('/repos/acme/shop/installation').reply(200, { id: 77 });
    // The token exchange, for as many requests as ask (a request of an earlier test may still come).
    nock(GITHUB)
      .persist()
      .post('/app/installations/77/access_tokens')
      .reply(201, { token: 'ghs_installation', expires_at: '2099-01-01T00:00:00Z' });
    const update = nock(GITHUB)
      .patch('/repos/acme/shop/check-runs/9003', (body: CreatedCheckRun) => ((updated = body), true))
      .reply(200, { id: 9003 });
    const create = nock(GITHUB).post('/repos/acme/shop/check-runs').reply(201, { id: 1 });

    const state = await publisher.publish('dep_test1');
    expect(state).toEqual({ status: 'completed', id: 9003, url: 'https://github.com/acme/shop/runs/9003' });
    expect(lookup.isDone() && update.isDone()).toBe(true);
    expect(create.isDone()).toBe(false);
    expect(deploys.states.get('dep_test1')).toEqual(state);
    expect(updated).toMatchObject({
      name: 'a11y-gate / shop-web',
      status: 'completed',
      conclusion: 'failure',
    });
  });

  test.each([
    [502, true],
    [429, true],
    [422, false],
    [404, false],
  ])('GitHub answering %s to the check run: another attempt follows: %s', async (code, retry) => {
    const { deploys, publisher } = setup();
    deploys.deploys.set('dep_test1', { org: 'acme', repository: 'acme/shop', result: gateResult() });
    const github = nock(GITHUB).get('/repos/acme/shop/installation').reply(200, { id: 77 });
    installationToken(github).post('/repos/acme/shop/check-runs').reply(code, { message: 'no' });
    const outcome = await publisher.attempt('dep_test1');
    expect(outcome).toMatchObject({ retry, status: code, checkRun: { status: 'failed' } });
    expect(outcome.error).toContain(`GitHub answered ${code}`);
  });
});
