import { rerunDeploy } from '../../../api/services/gate/triggers.js';
import { setDeployCheckRun } from '../../../api/services/github/check-runs.js';
import type { CreatedScan, Problem, Waiver } from '../../helpers/api-types.js';
import { type DeployEvent } from '../../../core/gate/deploy-event.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { eventPayloads } from '../../helpers/outbox.js';

const MAIN_SHA = 'a'.repeat(40);
const HEAD_SHA = 'b'.repeat(40);
const FIX_SHA = 'c'.repeat(40);
const SAME_SHA = 'd'.repeat(40);
const UNKNOWN_SHA = 'e'.repeat(40);

/** A row of the outbox as the test reads it. */
interface NativeIssue {
  rule: string;
  impact?: string;
  kind?: string;
  selector?: string;
  message?: string;
  wcag?: string[];
  source?: { path: string; line?: number };
}

const contrast: NativeIssue = { rule: 'color-contrast', impact: 'serious', selector: '#promo > .cta' };
const landmark: NativeIssue = { rule: 'region', impact: 'moderate', selector: 'main' };
const missingAlt: NativeIssue = {
  rule: 'image-alt',
  impact: 'critical',
  selector: '#hero > img',
  message: 'Images must have alternate text',
  wcag: ['1.1.1'],
  source: { path: 'src/Hero.tsx', line: 12 },
};

describe.each(dbKinds)('deploy gate (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  const site = 'shop-web';

  async function scan(sha: string, branch: string, issues: NativeIssue[], siteId = site, k = h.key) {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: k,
      body: {
        siteId,
        url: 'https://shop.example',
        sha,
        branch,
        pages: [
          { url: 'https://shop.example/', issues: issues.filter((i) => i.rule !== 'image-alt') },
          { url: 'https://shop.example/products/42', issues: issues.filter((i) => i.rule === 'image-alt') },
        ],
      },
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** A deploy event (201), or with `Problem` a refusal. */
  async function trigger<T = DeployEvent>(body: Record<string, unknown>, k = h.key) {
    return h.request<T>('POST', '/api/v1/deploy/trigger', { key: k, body: { siteId: site, ...body } });
  }

  let baselineScan: string;
  let headScan: string;

  beforeAll(async () => {
    baselineScan = (await scan(MAIN_SHA, 'main', [contrast, landmark])).id;
    headScan = (await scan(HEAD_SHA, 'feature/hero', [contrast, landmark, missingAlt])).id;
  });

  test('a new critical issue fails the gate (201), with the reason and the issue listed', async () => {
    const res = await trigger({ sha: HEAD_SHA });
    expect(res.status).toBe(201);
    const e = res.body;
    expect(res.headers.get('location')).toBe(`/api/v1/deploy/${e.id}`);
    expect(e.id).toMatch(/^dep_/);
    expect(e).toMatchObject({
      siteId: site,
      sha: HEAD_SHA,
      status: 'failed',
      passed: false,
      scan_id: headScan,
      baseline: { scan_id: baselineScan, sha: MAIN_SHA, strategy: 'base_branch' },
      counts: { new: 1, existing: 2, fixed: 0, waived: 0 },
      new_issues_total: 1,
      waived_issues: [],
      check_run: { status: 'skipped', id: null, url: null },
    });
    expect(e.counts.by_impact.critical).toEqual({ new: 1, existing: 0, fixed: 0, waived: 0 });
    expect(e.reasons).toEqual([
      { code: 'critical_issues', message: '1 new critical issue found; fail_on_critical allows none.' },
    ]);
    expect(e.thresholds).toEqual([{ name: 'fail_on_critical', limit: 0, actual: 1, passed: false }]);
    expect(e.new_issues).toEqual([
      {
        rule: 'image-alt',
        impact: 'critical',
        kind: 'violation',
        message: 'Images must have alternate text',
        selector: '#hero > img',
        page_url: 'https://shop.example/products/42',
        wcag: ['1.1.1'],
        help_url: null,
        html: null,
        source: { path: 'src/Hero.tsx', line: 12, column: null, method: null },
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
        match: 'none',
        baseline_issue: null,
        similarity: null,
        evidence: null,
      },
    ]);
    expect(e.settings).toEqual({
      fail_on_critical: true,
      fail_on_serious: false,
      max_critical: null,
      max_serious: null,
      max_moderate: null,
      max_minor: null,
      max_total: null,
      new_only: true,
      include_incomplete: false,
      engine_upgrade: 'warn',
    });

    const again = await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.id}`, { key: h.key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(e);
  });

  test('the decision is written to the outbox in the same transaction', async () => {
    const res = await trigger({ sha: HEAD_SHA });
    const payloads = await eventPayloads(h.db, 'deploy.completed', 'acme');
    const mine = payloads.find((p) => p.data.id === res.body.id);
    expect(mine!.data).toEqual(res.body);
  });

  test('a waiver passes it and lists the issue as waived; revoked, it fails again', async () => {
    const failed = (await trigger({ sha: HEAD_SHA })).body;
    const fingerprint = failed.new_issues[0].fingerprint;
    const w = await h.request<Waiver>('POST', '/api/v1/waivers', {
      key: h.key,
      body: {
        siteId: site,
        rule: 'image-alt',
        url_pattern: '/products/*',
        reason: 'Hero image is decorative; markup fix in JIRA-12',
        expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
    });
    expect(w.status).toBe(201);

    const waived = (await trigger({ sha: HEAD_SHA })).body;
    expect(waived.passed).toBe(true);
    expect(waived.reasons).toEqual([]);
    expect(waived.counts).toMatchObject({ new: 0, existing: 2, waived: 1 });
    expect(waived.new_issues).toEqual([]);
    expect(waived.waived_issues).toEqual([
      expect.objectContaining({ rule: 'image-alt', fingerprint, waiver_id: w.body.id, status: 'new' }),
    ]);

    // An event is a record: the earlier failure stays a failure.
    expect(
      (await h.request<DeployEvent>('GET', `/api/v1/deploy/${failed.id}`, { key: h.key })).body.passed,
    ).toBe(false);

    expect((await h.request('DELETE', `/api/v1/waivers/${w.body.id}`, { key: h.key })).status).toBe(200);
    const revoked = (await trigger({ sha: HEAD_SHA })).body;
    expect(revoked.passed).toBe(false);
    expect(revoked.waived_issues).toEqual([]);
    // …and the waived decision stays passed.
    expect(
      (await h.request<DeployEvent>('GET', `/api/v1/deploy/${waived.id}`, { key: h.key })).body.passed,
    ).toBe(true);
  });

  test('a waiver by the fingerprint copied from a deploy event, or by selector, waives that issue only', async () => {
    const failed = (await trigger({ sha: HEAD_SHA })).body;
    expect(failed.passed).toBe(false);
    const fingerprint: string = failed.new_issues[0].fingerprint;
    const expires_at = new Date(Date.now() + 86_400_000).toISOString();
    const byFp = await h.request<Waiver>('POST', '/api/v1/waivers', {
      key: h.key,
      // As a person copies it from the event (upper case works too).
      body: {
        siteId: site,
        rule: 'image-alt',
        fingerprint: fingerprint.toUpperCase(),
        reason: 'x',
        expires_at,
      },
    });
    expect(byFp.status).toBe(201);
    const e = (await trigger({ sha: HEAD_SHA })).body;
    expect(e).toMatchObject({ passed: true, counts: { new: 0, waived: 1 } });
    expect(e.waived_issues[0]).toMatchObject({ fingerprint, waiver_id: byFp.body.id });
    await h.request('DELETE', `/api/v1/waivers/${byFp.body.id}`, { key: h.key });

    const wrongElement = await h.request<Waiver>('POST', '/api/v1/waivers', {
      key: h.key,
      body: { siteId: site, rule: 'image-alt', selector: '#hero > picture', reason: 'x', expires_at },
    });
    expect((await trigger({ sha: HEAD_SHA })).body.passed).toBe(false);
    const bySelector = await h.request<Waiver>('POST', '/api/v1/waivers', {
      key: h.key,
      body: { siteId: site, rule: 'image-alt', selector: '#hero>img', reason: 'x', expires_at },
    });
    const s = (await trigger({ sha: HEAD_SHA })).body;
    expect(s.passed).toBe(true);
    expect(s.waived_issues.map((w: { waiver_id: string }) => w.waiver_id)).toEqual([bySelector.body.id]);
    for (const w of [wrongElement, bySelector])
      await h.request('DELETE', `/api/v1/waivers/${w.body.id}`, { key: h.key });
  });

  test("another org's waivers on a site of the same name do not touch this org's gate", async () => {
    const other = await h.createKey({ org: 'other-waiver-org' });
    await scan(MAIN_SHA, 'main', [contrast], site, other);
    const w = await h.request<Waiver>('POST', '/api/v1/waivers', {
      key: other,
      body: {
        siteId: site,
        rule: 'image-alt',
        reason: 'theirs',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(w.status).toBe(201);
    const e = (await trigger({ sha: HEAD_SHA })).body;
    expect(e).toMatchObject({ passed: false, scan_id: headScan, counts: { waived: 0 } });
    expect((await h.request('GET', `/api/v1/waivers/${w.body.id}`, { key: h.key })).status).toBe(404);
  });

  test('an expired waiver no longer applies', async () => {
    const w = await h.request<Waiver>('POST', '/api/v1/waivers', {
      key: h.key,
      body: {
        siteId: site,
        rule: 'image-alt',
        reason: 'temporary',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(w.status).toBe(201);
    expect((await trigger({ sha: HEAD_SHA })).body.passed).toBe(true);
    // Let it expire (the API refuses past dates, so move it back in the database).
    await h
      .db('waivers')
      .where({ id: w.body.id })
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const res = (await trigger({ sha: HEAD_SHA })).body;
    expect(res.passed).toBe(false);
    expect(res.counts.waived).toBe(0);
    await h.request('DELETE', `/api/v1/waivers/${w.body.id}`, { key: h.key });
  });

  test('head equal to the baseline passes', async () => {
    await scan(SAME_SHA, 'feature/copy', [contrast, landmark]);
    const e = (await trigger({ sha: SAME_SHA, fail_on_serious: true, max_total: 0 })).body;
    expect(e).toMatchObject({ passed: true, status: 'passed', counts: { new: 0, existing: 2, fixed: 0 } });
    expect(e.thresholds.map((t: { passed: boolean }) => t.passed)).toEqual([true, true, true]);
  });

  test('a fix only passes, with fixed counted', async () => {
    await scan(FIX_SHA, 'feature/contrast', [landmark]);
    const e = (await trigger({ sha: FIX_SHA, max_total: 0 })).body;
    expect(e).toMatchObject({ passed: true, counts: { new: 0, existing: 1, fixed: 1 } });
    expect(e.counts.by_impact.serious.fixed).toBe(1);
  });

  test('an unknown sha fails with no_scan', async () => {
    const res = await trigger({ sha: UNKNOWN_SHA });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ passed: false, status: 'failed', scan_id: null, baseline: null });
    expect(res.body.reasons.map((r: { code: string }) => r.code)).toEqual(['no_scan']);
    expect(res.body.reasons[0].message).toMatch(/No scan/);
  });

  test('baseline_sha picks the baseline; an unknown one means every issue is new', async () => {
    const e = (await trigger({ sha: HEAD_SHA, baseline_sha: SAME_SHA })).body;
    expect(e.baseline).toMatchObject({ sha: SAME_SHA, strategy: 'baseline_sha' });
    expect(e.counts).toMatchObject({ new: 1, existing: 2 });
    const none = (await trigger({ sha: HEAD_SHA, baseline_sha: UNKNOWN_SHA })).body;
    expect(none.baseline).toMatchObject({ scan_id: null, sha: UNKNOWN_SHA, strategy: 'baseline_sha' });
    expect(none.counts).toMatchObject({ new: 3, existing: 0 });
  });

  test('baseline_fallback base_branch: a baseline_sha without a scan falls back to the base branch (a merge queue)', async () => {
    const main = (await trigger({ sha: HEAD_SHA })).body.baseline!;
    const e = (await trigger({ sha: HEAD_SHA, baseline_sha: UNKNOWN_SHA, baseline_fallback: 'base_branch' }))
      .body;
    expect(e.baseline).toMatchObject({ scan_id: main.scan_id, strategy: 'base_branch' });
    expect(e.baseline!.reason).toContain(`baseline_sha ${UNKNOWN_SHA.slice(0, 12)}, which has no scan`);
    expect(e.counts).toMatchObject({ new: 1, existing: 2 });
    // A baseline_sha that has a scan is still the one compared with.
    const named = (await trigger({ sha: HEAD_SHA, baseline_sha: SAME_SHA, baseline_fallback: 'base_branch' }))
      .body;
    expect(named.baseline).toMatchObject({ sha: SAME_SHA, strategy: 'baseline_sha' });
  });

  test('with no earlier scan on the base branch every issue of another branch is new; new_only false counts all', async () => {
    // Off the base branch (its own first scan records the baseline instead: baseline-recorded.test.ts).
    await scan(HEAD_SHA, 'feature/x', [contrast], 'first-site');
    const e = (await trigger({ siteId: 'first-site', sha: HEAD_SHA, max_total: 0 })).body;
    expect(e.baseline).toMatchObject({ scan_id: null, strategy: 'none' });
    expect(e.reasons.map((r: { code: string }) => r.code)).toEqual(['max_total_exceeded']);

    const all = (await trigger({ sha: HEAD_SHA, new_only: false, max_serious: 0 })).body;
    expect(all.reasons.map((r: { code: string }) => r.code)).toEqual([
      'critical_issues',
      'max_serious_exceeded',
    ]);
    expect(all.reasons[0].message).toMatch(/new and existing/);
  });

  test('site gate settings are the defaults; the request overrides them', async () => {
    const patched = await h.request('PATCH', `/api/v1/sites/${site}`, {
      key: h.key,
      body: { gate: { fail_on_critical: false, max_moderate: 0 } },
    });
    expect(patched.status).toBe(200);
    try {
      const bySite = (await trigger({ sha: HEAD_SHA, new_only: false })).body;
      expect(bySite.settings).toMatchObject({ fail_on_critical: false, max_moderate: 0, new_only: false });
      expect(bySite.reasons.map((r: { code: string }) => r.code)).toEqual(['max_moderate_exceeded']);

      const overridden = (
        await trigger({ sha: HEAD_SHA, new_only: false, fail_on_critical: true, max_moderate: null })
      ).body;
      expect(overridden.settings).toMatchObject({ fail_on_critical: true, max_moderate: null });
      expect(overridden.reasons.map((r: { code: string }) => r.code)).toEqual(['critical_issues']);
    } finally {
      await h.request('PATCH', `/api/v1/sites/${site}`, { key: h.key, body: { gate: null } });
    }
  });

  test('incomplete issues count only with include_incomplete', async () => {
    const sha = 'f1'.repeat(20);
    await scan(sha, 'feature/x', [contrast, landmark, { ...missingAlt, kind: 'incomplete' }]);
    expect((await trigger({ sha })).body).toMatchObject({ passed: true, counts: { new: 0 } });
    expect((await trigger({ sha, include_incomplete: true })).body).toMatchObject({
      passed: false,
      counts: { new: 1 },
    });
  });

  test('repository: from the request, else the site; the check run is skipped without the App', async () => {
    const e = (await trigger({ sha: HEAD_SHA, repository: 'acme/shop', ref: 'refs/heads/feature/hero' }))
      .body;
    expect(e).toMatchObject({ repository: 'acme/shop', ref: 'refs/heads/feature/hero' });
    expect(e.check_run).toMatchObject({
      status: 'skipped',
      error: expect.stringMatching(/not configured/) as unknown,
    });
    const none = (await trigger({ sha: HEAD_SHA })).body;
    expect(none.repository).toBeNull();
    expect(none.check_run.error).toMatch(/No repository/);
  });

  test("another org's site and deploy events answer 404", async () => {
    const other = await h.createKey({ org: 'other' });
    const res = await trigger<Problem>({ sha: HEAD_SHA }, other);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const mine = (await trigger({ sha: HEAD_SHA })).body;
    expect((await h.request<DeployEvent>('GET', `/api/v1/deploy/${mine.id}`, { key: other })).status).toBe(
      404,
    );
    expect((await h.request('GET', '/api/v1/deploy/dep_doesnotexist', { key: h.key })).status).toBe(404);
    // An id no event can have is a 404 on both databases (PostgreSQL refuses U+0000 in a query).
    expect((await h.request('GET', '/api/v1/deploy/dep_%00', { key: h.key })).status).toBe(404);
    expect((await trigger({ siteId: 'no-such-site', sha: HEAD_SHA })).status).toBe(404);
  });

  test('bad thresholds are 422 with pointers, and nothing is recorded', async () => {
    const before = await h.db('deploys').count({ n: '*' }).first();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ sha: HEAD_SHA, max_total: -1 }, '#/max_total'],
      [{ sha: HEAD_SHA, max_critical: 1.5 }, '#/max_critical'],
      [{ sha: HEAD_SHA, max_serious: '3' }, '#/max_serious'],
      [{ sha: HEAD_SHA, fail_on_critical: 'yes' }, '#/fail_on_critical'],
      [{ sha: HEAD_SHA, new_only: 1 }, '#/new_only'],
      [{ sha: 'not-a-sha' }, '#/sha'],
      [{}, '#/sha'],
      [{ sha: HEAD_SHA, siteId: 'Not A Site' }, '#/siteId'],
      [{ sha: HEAD_SHA, repository: 'no-slash' }, '#/repository'],
      [{ sha: HEAD_SHA, max_totl: 3 }, '#'],
      // PostgreSQL text cannot hold U+0000: this answered 500 there, after evaluating the gate.
      [{ sha: HEAD_SHA, ref: 'refs/heads/a\u0000b' }, '#/ref'],
    ];
    for (const [body, pointer] of cases) {
      const res = await trigger<Problem>(body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors!.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expect(await h.db('deploys').count({ n: '*' }).first()).toEqual(before);
  });

  test('scopes: trigger needs gate; GET takes gate or read', async () => {
    const ingestOnly = await h.createKey({ org: 'acme', scopes: ['ingest'] });
    const readOnly = await h.createKey({ org: 'acme', scopes: ['read'] });
    const gateOnly = await h.createKey({ org: 'acme', scopes: ['gate'] });
    expect((await trigger({ sha: HEAD_SHA }, ingestOnly)).status).toBe(403);
    expect((await trigger({ sha: HEAD_SHA }, readOnly)).status).toBe(403);
    const e = await trigger({ sha: HEAD_SHA }, gateOnly);
    expect(e.status).toBe(201);
    expect(
      (await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.body.id}`, { key: readOnly })).status,
    ).toBe(200);
    expect(
      (await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.body.id}`, { key: gateOnly })).status,
    ).toBe(200);
    expect(
      (await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.body.id}`, { key: ingestOnly })).status,
    ).toBe(403);
  });

  test('Idempotency-Key replays the same deploy event', async () => {
    const headers = { 'idempotency-key': 'ci-run-42' };
    const first = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      headers,
      body: { siteId: site, sha: HEAD_SHA },
    });
    const second = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      headers,
      body: { siteId: site, sha: HEAD_SHA },
    });
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.id).toBe(first.body.id);
  });

  test('without the GitHub App: check run skipped, no GitHub delivery in the outbox, state recorded', async () => {
    const ctx = h.server.service.ctx;
    const e = (await trigger({ sha: HEAD_SHA, repository: 'acme/shop' })).body;
    expect(e.check_run).toEqual({
      status: 'skipped',
      id: null,
      url: null,
      error: 'The GitHub App is not configured on this server.',
    });
    expect(await h.db('webhook_deliveries').where({ target: 'github' })).toEqual([]);

    await setDeployCheckRun(ctx, e.id, {
      status: 'completed',
      id: 4242,
      url: 'https://github.com/acme/shop/runs/4242',
    });
    const after = (await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.id}`, { key: h.key })).body;
    expect(after.check_run).toEqual({
      status: 'completed',
      id: 4242,
      url: 'https://github.com/acme/shop/runs/4242',
      error: null,
    });
    // The rest of the record is unchanged.
    expect({ ...after, check_run: e.check_run }).toEqual(e);
  });

  test('a deploy event read again shows its check run as it is now, whenever and however it changed', async () => {
    const e = (await trigger({ sha: HEAD_SHA, repository: 'acme/shop' })).body;
    const read = async () => h.request<DeployEvent>('GET', `/api/v1/deploy/${e.id}`, { key: h.key });
    expect((await read()).body).toEqual(e);
    expect((await read()).body).toEqual(e);

    await setDeployCheckRun(h.server.service.ctx, e.id, { status: 'completed', id: 7 });
    expect((await read()).body.check_run).toEqual({ status: 'completed', id: 7, url: null, error: null });

    // Changed within the same millisecond as the last change: the read still sees it.
    await h
      .db('deploys')
      .where({ id: e.id })
      .update({ check_run_status: 'failed', check_run_error: 'GitHub said no' });
    const now = (await read()).body;
    expect(now.check_run).toEqual({ status: 'failed', id: 7, url: null, error: 'GitHub said no' });
    expect({ ...now, check_run: e.check_run }).toEqual(e);

    await h.db('deploys').where({ id: e.id }).delete();
    expect((await read()).status).toBe(404);
  });

  test('rerunDeploy repeats the sha with the applied thresholds, only for the same repository', async () => {
    const ctx = h.server.service.ctx;
    const first = (
      await trigger({ sha: HEAD_SHA, repository: 'acme/shop', max_moderate: 5, fail_on_critical: false })
    ).body;
    expect(first.passed).toBe(true);
    expect(await rerunDeploy(ctx, first.id, 'acme/other')).toBeUndefined();
    expect(await rerunDeploy(ctx, 'dep_missing', 'acme/shop')).toBeUndefined();

    // Site defaults that change later do not change a re-run of the earlier decision.
    await h.request('PATCH', `/api/v1/sites/${site}`, {
      key: h.key,
      body: { gate: { fail_on_critical: true } },
    });
    try {
      const next = await rerunDeploy(ctx, first.id, 'ACME/shop');
      expect(next?.deployId).toMatch(/^dep_/);
      expect(next!.deployId).not.toBe(first.id);
      const again = (await h.request<DeployEvent>('GET', `/api/v1/deploy/${next!.deployId}`, { key: h.key }))
        .body;
      expect(again).toMatchObject({
        sha: HEAD_SHA,
        repository: 'acme/shop',
        passed: true,
        settings: first.settings,
      });
    } finally {
      await h.request('PATCH', `/api/v1/sites/${site}`, { key: h.key, body: { gate: null } });
    }
  });

  test('the latest scan of a sha is the head: a re-run of CI supersedes the earlier scan', async () => {
    const sha = 'ab'.repeat(20);
    await scan(sha, 'feature/rerun', [contrast, landmark, missingAlt]);
    expect((await trigger({ sha })).body.passed).toBe(false);
    await new Promise((r) => setTimeout(r, 3)); // a distinct created_at
    const rerun = await scan(sha, 'feature/rerun', [contrast, landmark]);
    const e = (await trigger({ sha })).body;
    expect(e).toMatchObject({ passed: true, scan_id: rerun.id });
  });
});
