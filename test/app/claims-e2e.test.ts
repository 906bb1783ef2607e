import nock from 'nock';
import type { CreatedScan, DeployEvent, ScanIssue } from '../helpers/api-types.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { capturingLogger, testProbot, type CreatedCheckRun } from '../fixtures/github/test-app.js';
import { checkAgainstGitHub } from '../fixtures/github/openapi.js';
import { onlyFakeGitHub } from '../helpers/github-network.js';
import { deliverDue } from '../helpers/outbox.js';

/**
 * A pull request through the GitHub App with three claimed fixes, one each of verified, not fixed and needs a
 * person: the check run and the sticky comment show each (the new text beside the old, as text), and the gate
 * fails on the claim not fixed only when the site asks for it (`claims: strict`). GitHub is faked with nock,
 * every request checked against GitHub's OpenAPI description; the server and its database are real.
 */

const GITHUB = 'https://api.github.com';
const INSTALLATION = 4343;
const MAIN = 'a'.repeat(40);
const HEAD = 'b'.repeat(40);

// The page before: a low-contrast price, an image without alt, an empty link. After the change: the contrast
// is fixed (its element now passes), the image has an alt that tries to be markup, the link is still empty.
const BEFORE = [
  { rule: 'color-contrast', impact: 'serious', selector: '.price', html: '<p class="price">€20</p>' },
  { rule: 'image-alt', impact: 'critical', selector: 'img.hero', html: '<img class="hero" src="h.png">' },
  { rule: 'link-name', impact: 'serious', selector: 'a.cart', html: '<a class="cart" href="/cart"></a>' },
];
const AFTER = [BEFORE[2]];
const ALT = '<b>@team</b> | image';
const PASSES = [
  { rule: 'color-contrast', selector: '.price', html: '<p class="price">€20</p>' },
  { rule: 'image-alt', selector: 'img.hero', html: `<img class="hero" src="h.png" alt="${ALT}">` },
];

onlyFakeGitHub();

describe.each(dbKinds)('claimed fixes through the GitHub App (%s)', (db) => {
  const h = useHarness({
    db,
    org: 'acme',
    probot: testProbot({ log: capturingLogger().logger }),
    env: { GITHUB_TIMEOUT_MS: '4000', GITHUB_INSTALLATIONS_ORG: 'acme', PUBLIC_URL: 'https://gate.example' },
  });

  async function scan(sha: string, branch: string, page: Record<string, unknown>) {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: { siteId: 'shop', url: 'https://shop.example.com/', sha, branch, pages: [{ url: '/', ...page }] },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** One publication: the check run and the comment, captured. */
  function fakeGitHub(commentId: number | null) {
    const out = { checkRuns: [] as CreatedCheckRun[], comments: [] as string[] };
    // A later publication may find the installation and the comment from what the first one recorded.
    const again = commentId !== null;
    const installation = nock(GITHUB).get('/repos/acme/shop/installation');
    const scope = (again ? installation.optionally() : installation)
      .reply(200, { id: INSTALLATION, account: { login: 'acme' } })
      .post(`/app/installations/${INSTALLATION}/access_tokens`)
      .optionally()
      .reply(201, { token: 'ghs_claims', expires_at: '2099-01-01T00:00:00Z' })
      .post('/repos/acme/shop/check-runs', (b: CreatedCheckRun) => (out.checkRuns.push(b), true))
      .reply(201, { id: 7001, html_url: 'https://github.com/acme/shop/runs/7001' })
      .get('/repos/acme/shop/issues/42/comments')
      .query(true)
      .optionally(again)
      .reply(200, commentId === null ? [] : [{ id: commentId, body: '<!-- a11y-gate:shop -->\n### old' }]);
    if (commentId === null)
      scope
        .post(
          '/repos/acme/shop/issues/42/comments',
          (b: { body: string }) => (out.comments.push(b.body), true),
        )
        .reply(201, { id: 5501 });
    else
      scope
        .patch(
          `/repos/acme/shop/issues/comments/${commentId}`,
          (b: { body: string }) => (out.comments.push(b.body), true),
        )
        .reply(200, { id: commentId });
    return { ...out, scope, refusals: checkAgainstGitHub(scope) };
  }

  test('the check run and the comment show each claim; only a strict site fails on the one not fixed', async () => {
    await h.request('PATCH', '/api/v1/sites/shop', { key: h.key, body: { repository: 'acme/shop' } });
    const baseId = await scan(MAIN, 'main', { issues: BEFORE });
    await scan(HEAD, 'fix/a11y', { issues: AFTER, passes: PASSES });
    const listed = await h.request<{ data: ScanIssue[] }>('GET', `/api/v1/scans/${baseId}/issues`, {
      key: h.key,
    });
    const fp = Object.fromEntries(listed.body.data.map((i) => [i.rule, i.fingerprint]));
    const claims = [
      { fingerprint: fp['color-contrast'], agent: 'claude-code', model: 'claude-sonnet-4' },
      fp['image-alt'],
      fp['link-name'],
    ];

    const first = fakeGitHub(null);
    const reported = (
      await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
        key: h.key,
        body: { siteId: 'shop', sha: HEAD, pull_request: 42, claims },
      })
    ).body;
    expect(reported.claims?.items.map((c) => c.outcome)).toEqual(['verified', 'needs_person', 'not_fixed']);
    expect(reported.passed).toBe(true);
    await deliverDue(h.server.service.ctx);
    expect(first.scope.isDone()).toBe(true);
    expect(first.refusals).toEqual([]);
    expect(first.checkRuns).toHaveLength(1);
    expect(first.checkRuns[0].conclusion).toBe('success');
    const summary = first.checkRuns[0].output.summary;
    const rows = [
      `| \`color-contrast\` \`${fp['color-contrast'].slice(0, 12)}\` on \`/\` | ✅ verified |  | claude-code, claude-sonnet-4 |`,
      // The new alt is page text: shown as code, its `|` escaped, never as markup or a mention.
      `| \`image-alt\` \`${fp['image-alt'].slice(0, 12)}\` on \`/\` | 👤 needs a person | _none_ → \`<b>@team</b> \\| image\` |  |`,
      `| \`link-name\` \`${fp['link-name'].slice(0, 12)}\` on \`/\` | ❌ not fixed | _none_ → _none_ |  |`,
    ];
    for (const text of [summary, first.comments[0]]) {
      expect(text).toContain('#### Claimed fixes (3)');
      expect(text).toContain(
        'Reported only: the site’s `claims` setting is `report`, so a claim not fixed does not fail the gate. ' +
          '1 not fixed. 1 to be accepted by a person in the deploy event.',
      );
      for (const row of rows) expect(text).toContain(row);
    }

    // The site asks for claims to hold: the same pull request's gate fails on the claim not fixed.
    await h.request('PATCH', '/api/v1/sites/shop', { key: h.key, body: { claims: 'strict' } });
    const second = fakeGitHub(5501);
    const strict = (
      await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
        key: h.key,
        body: { siteId: 'shop', sha: HEAD, pull_request: 42, claims },
      })
    ).body;
    expect(strict.passed).toBe(false);
    expect(strict.reasons.map((r) => r.code)).toEqual(['claims_not_fixed']);
    await deliverDue(h.server.service.ctx);
    expect(second.scope.isDone()).toBe(true);
    expect(second.refusals).toEqual([]);
    expect(second.checkRuns[0].conclusion).toBe('failure');
    expect(second.checkRuns[0].output.summary).toContain(
      "- `claims_not_fixed`: 1 claimed fix is not fixed (the site's claims setting is strict).",
    );
    expect(second.comments[0]).toContain(
      'The site’s `claims` setting is `strict`: a claim not fixed fails the gate.',
    );
    expect(second.comments[0]).toContain('### ❌ Accessibility gate failed: `shop`');
  });
});
