import nock from 'nock';
import type { CreatedScan, DeployEvent, OpenScan, Problem, ScanDetail } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { capturingLogger, testProbot, type CreatedCheckRun } from '../../fixtures/github/test-app.js';
import { checkAgainstGitHub } from '../../fixtures/github/openapi.js';
import { onlyFakeGitHub } from '../../helpers/github-network.js';
import { deliverDue } from '../../helpers/outbox.js';

/**
 * Partial scans through the real server: a scan of some pages only (the ones a pull request touched) is
 * compared on those pages, never counts the others' issues as fixed, and is never a baseline. The check
 * run and the comment go to a fake GitHub, every request checked against GitHub's OpenAPI description.
 */

const GITHUB = 'https://api.github.com';
const INSTALLATION = 6160;

interface Issue {
  rule: string;
  impact: string;
  selector: string;
}
const issue = (rule: string, selector: string, impact = 'serious'): Issue => ({ rule, impact, selector });

// The site's pages and what the base branch's full scan found on them: 7 issues on 3 pages.
const BASE: Record<string, Issue[]> = {
  '/': [issue('region', 'main'), issue('color-contrast', '.hero a')],
  '/cart': [issue('label', '#qty'), issue('color-contrast', '.total')],
  '/checkout': [issue('label', '#card'), issue('label', '#cvc'), issue('button-name', '.pay')],
};
// The pull request touched the cart: one issue fixed (.total), one kept (#qty), one new.
const CART = [issue('label', '#qty'), issue('image-alt', '.promo img', 'critical')];

onlyFakeGitHub();

describe.each(dbKinds)('partial scans (%s)', (db) => {
  const h = useHarness({
    db,
    org: 'acme',
    probot: testProbot({ log: capturingLogger().logger }),
    env: { GITHUB_TIMEOUT_MS: '4000', GITHUB_INSTALLATIONS_ORG: 'acme', PUBLIC_URL: 'https://gate.example' },
  });

  async function scan(
    siteId: string,
    sha: string,
    branch: string,
    pages: Record<string, Issue[]>,
    scope?: 'full' | 'partial',
  ) {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId,
        url: 'https://shop.example.com/',
        sha,
        branch,
        ...(scope ? { scope } : {}),
        pages: Object.entries(pages).map(([url, issues]) => ({ url, issues })),
      },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function trigger(body: Record<string, unknown>) {
    const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', { key: h.key, body });
    expect(res.status).toBe(201);
    return res.body;
  }

  test('a partial scan of one page: fixed 1 (not 6), new 1; the event, the check run and the comment name the pages compared', async () => {
    await h.request('PATCH', '/api/v1/sites/shop', { key: h.key, body: { repository: 'acme/shop' } });
    const mainSha = 'a'.repeat(40);
    const headSha = 'b'.repeat(40);
    await scan('shop', mainSha, 'main', BASE);
    const headId = await scan('shop', headSha, 'feature/cart', { '/cart': CART }, 'partial');
    expect((await h.request<ScanDetail>('GET', `/api/v1/scans/${headId}`, { key: h.key })).body.scope).toBe(
      'partial',
    );

    const checkRuns: CreatedCheckRun[] = [];
    const comments: Array<{ body: string }> = [];
    const github = nock(GITHUB)
      .get('/repos/acme/shop/installation')
      .reply(200, { id: INSTALLATION, account: { login: 'acme' } })
      .post(`/app/installations/${INSTALLATION}/access_tokens`)
      .optionally()
      .reply(201, { token: 'ghs_partial', expires_at: '2099-01-01T00:00:00Z' })
      .post('/repos/acme/shop/check-runs', (b: CreatedCheckRun) => (checkRuns.push(b), true))
      .reply(201, { id: 9101, html_url: 'https://github.com/acme/shop/runs/9101' })
      .get('/repos/acme/shop/issues/42/comments')
      .query(true)
      .reply(200, [])
      .post('/repos/acme/shop/issues/42/comments', (b: { body: string }) => (comments.push(b), true))
      .reply(201, { id: 880001 });
    const refusals = checkAgainstGitHub(github);

    const e = await trigger({ siteId: 'shop', sha: headSha, pull_request: 42 });
    expect(e.baseline).toMatchObject({ strategy: 'base_branch', sha: mainSha });
    expect(e.counts).toMatchObject({ new: 1, existing: 1, fixed: 1 });
    expect(e.new_issues.map((i) => i.selector)).toEqual(['.promo img']);
    expect(e.passed).toBe(false);
    const message =
      "Compared 1 of 3 pages: this scan covers only the pages listed; the baseline's issues on the other 2 " +
      'pages count neither as fixed nor as existing.';
    expect(e.coverage).toEqual({
      scope: 'partial',
      pages_compared: 1,
      pages_total: 3,
      pages: ['/cart'],
      message,
    });
    // The stored event reads back the same.
    const read = await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.id}`, { key: h.key });
    expect(read.body.coverage).toEqual(e.coverage);

    await deliverDue(h.server.service.ctx);
    expect(checkRuns).toHaveLength(1);
    const summary = checkRuns[0].output.summary;
    expect(summary).toContain(`#### Pages compared\n\n${message}\n\n- \`/cart\`\n`);
    expect(summary).toContain('| **Total** | **1** | **1** | **1** | **0** |');
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toContain(message);
    expect(github.isDone()).toBe(true);
    expect(refusals).toEqual([]);

    // The same pages sent as a full scan: every issue of the pages it did not scan would count as fixed.
    const fullSha = 'c'.repeat(40);
    await scan('shop', fullSha, 'feature/cart', { '/cart': CART });
    const full = await trigger({ siteId: 'shop', sha: fullSha });
    expect(full.counts).toMatchObject({ new: 1, existing: 1, fixed: 6 });
    expect(full.coverage).toBeNull();
  });

  test('a partial scan is never a baseline: later commits are compared with the latest full scan', async () => {
    await scan('never', 'd'.repeat(40), 'main', BASE);
    // A later push to main scanned only the cart, where everything was fixed.
    await scan('never', 'e'.repeat(40), 'main', { '/cart': [] }, 'partial');
    const onMain = await trigger({ siteId: 'never', sha: 'e'.repeat(40) });
    expect(onMain.baseline?.sha).toBe('d'.repeat(40));
    expect(onMain.counts).toMatchObject({ new: 0, existing: 0, fixed: 2 });
    expect(onMain.coverage).toMatchObject({ pages_compared: 1, pages_total: 3 });

    // Compared with the partial one, the issues of / and /checkout would all be new.
    await scan('never', 'f'.repeat(40), 'feature', BASE);
    const next = await trigger({ siteId: 'never', sha: 'f'.repeat(40) });
    expect(next.baseline?.sha).toBe('d'.repeat(40));
    expect(next.counts).toMatchObject({ new: 0, existing: 7, fixed: 0 });
    expect(next.passed).toBe(true);
  });

  test('with no full scan of the base branch, every issue is new and the gate says how to get one', async () => {
    await scan('only-partial', '1'.repeat(40), 'main', { '/cart': CART }, 'partial');
    const first = await trigger({ siteId: 'only-partial', sha: '1'.repeat(40) });
    // A partial scan records no baseline, not even the base branch's first.
    expect(first.reasons.map((r) => r.code)).toEqual(['critical_issues']);
    expect(first.baseline).toMatchObject({
      scan_id: null,
      strategy: 'none',
      reason:
        'No full scan of main yet (a partial scan is never a baseline): every issue counts as new. ' +
        'Scan every page of main first, or commit a baseline file.',
    });
    expect(first.coverage?.message).toBe(
      'This scan covers only the 1 page listed, and there is no baseline to compare it with.',
    );

    await scan('no-main', '2'.repeat(40), 'feature', { '/cart': CART });
    const none = await trigger({ siteId: 'no-main', sha: '2'.repeat(40) });
    expect(none.baseline?.reason).toBe(
      'No scan of main yet: every issue counts as new. Scan main first, or commit a baseline file.',
    );
  });

  test('a scope other than full or partial is refused with a pointer, and nothing is stored', async () => {
    const res = await h.request<Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: { siteId: 'refused', url: 'https://shop.example.com/', scope: 'some', pages: [{ url: '/' }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors?.map((e) => e.pointer)).toEqual(['#/scope']);
    const [{ n }] = await h.db('scans').where({ site_id: 'refused' }).count({ n: '*' });
    expect(Number(n)).toBe(0);
  });

  test('the shards of one scan say the same scope: another answers 409', async () => {
    const open = (scope: 'full' | 'partial') =>
      h.request<OpenScan | Problem>('POST', '/api/v1/scans', {
        key: h.key,
        body: {
          siteId: 'sharded',
          url: 'https://shop.example.com/',
          sha: '3'.repeat(40),
          scope,
          complete: false,
          scan_group: 'run-7',
          shards: 2,
          pages: [],
        },
      });
    expect((await open('partial')).status).toBe(201);
    const other = await open('full');
    expect(other.status).toBe(409);
    expect((other.body as Problem).detail).toBe(
      'The group "run-7" names a partial scan; this request says full.',
    );
  });
});
