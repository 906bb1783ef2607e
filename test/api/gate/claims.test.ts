import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import type { AxeResults } from 'axe-core';
import type {
  ClaimAccepted,
  CreatedScan,
  DeployEvent,
  Problem,
  ScanIssue,
  VpatReport,
} from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { axeTargetToSelector } from '../../../core/scans/axe-target.js';

/**
 * Claimed fixes through the service: a scan that keeps the passing elements of the claimed rules, a deploy
 * trigger (or a scan body) that names the fixes, the gate's answer per claim, the site's `claims` policy,
 * and a person's acceptance of a text rule's new text. Real axe-core results of one page before and after a
 * change (test/fixtures/axe/pages.ts: defects, fixes).
 */

const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/axe/${name}.json`, import.meta.url), 'utf8')) as AxeResults;
const before = read('defects');
const after = read('fixes');
const PAGE = '/products?utm_source=newsletter#reviews';

/** The passing elements as the scanner sends them (scanner/scan-body.ts). */
const passesOf = (result: AxeResults) =>
  result.passes.flatMap((r) =>
    r.nodes.map((n) => ({ rule: r.id, selector: axeTargetToSelector(n.target), html: n.html })),
  );

describe.each(dbKinds)('claimed fixes (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  async function scan(
    siteId: string,
    sha: string,
    branch: string,
    page: Record<string, unknown>,
    extra = {},
  ) {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: { siteId, url: 'http://fixture.test/', sha, branch, pages: [{ url: PAGE, ...page }], ...extra },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function trigger(body: Record<string, unknown>, key = h.key) {
    const res = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', { key, body });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** The fingerprint of the first violation of each rule, as the scan's issues list it. */
  async function fingerprints(scanId: string): Promise<Record<string, string>> {
    const res = await h.request<{ data: ScanIssue[] }>('GET', `/api/v1/scans/${scanId}/issues?limit=100`, {
      key: h.key,
    });
    const out: Record<string, string> = {};
    for (const i of res.body.data) if (i.kind === 'violation') out[i.rule] ??= i.fingerprint;
    return out;
  }

  const accept = (deployId: string, fingerprint: string, body: unknown, key = h.key) =>
    h.request<ClaimAccepted | Problem>('POST', `/api/v1/deploy/${deployId}/claims/${fingerprint}/accept`, {
      key,
      body,
    });

  test('each claim answered element by element; the policy decides whether a claim not fixed fails the gate', async () => {
    const baseId = await scan('shop', 'a'.repeat(40), 'main', { axe: before });
    const fp = await fingerprints(baseId);
    await scan('shop', 'b'.repeat(40), 'fix/a11y', { axe: after, passes: passesOf(after) });
    const agent = {
      agent: 'claude-code',
      model: 'claude-sonnet-4',
      session_url: 'https://agents.example/s/42',
    };
    const claims = [
      fp['color-contrast'],
      { fingerprint: fp['image-alt'], ...agent },
      fp['button-name'],
      fp['label'],
      fp['link-name'],
      'f'.repeat(64),
    ];
    const e = await trigger({ siteId: 'shop', sha: 'b'.repeat(40), claims });
    expect(e.claims?.policy).toBe('report');
    expect(e.claims?.items.map((c) => [c.rule, c.outcome])).toEqual([
      ['color-contrast', 'verified'],
      ['image-alt', 'needs_person'],
      ['button-name', 'needs_person'],
      ['label', 'removed'],
      ['link-name', 'not_fixed'],
      [null, 'unknown'],
    ]);
    const img = e.claims!.items[1];
    expect(img).toMatchObject({
      page_url: PAGE,
      before: { text: null },
      after: { text: 'image' },
      provenance: agent,
      accepted: null,
    });
    // Reported only: nothing new, so the gate passes although one claim is not fixed.
    expect(e.passed).toBe(true);
    expect(e.reasons).toEqual([]);
    // The stored event reads back the same.
    const stored = await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.id}`, { key: h.key });
    expect(stored.body.claims).toEqual(e.claims);

    const strict = await h.request('PATCH', '/api/v1/sites/shop', { key: h.key, body: { claims: 'strict' } });
    expect(strict.status).toBe(200);
    expect((strict.body as { claims: string }).claims).toBe('strict');
    const failed = await trigger({ siteId: 'shop', sha: 'b'.repeat(40), claims });
    expect(failed.passed).toBe(false);
    expect(failed.reasons).toEqual([
      {
        code: 'claims_not_fixed',
        message: "1 claimed fix is not fixed (the site's claims setting is strict).",
      },
    ]);
    // The issue's history keeps each claim with who made the change, newest first.
    const history = await h.request<{
      data: Array<{ deploy_id: string; outcome: string; provenance: unknown }>;
    }>('GET', `/api/v1/sites/shop/issues/${fp['image-alt']}/claims`, { key: h.key });
    expect(history.body.data.map((c) => [c.deploy_id, c.outcome, c.provenance])).toEqual([
      [failed.id, 'needs_person', agent],
      [e.id, 'needs_person', agent],
    ]);
    expect(
      (await h.request('GET', '/api/v1/sites/nosuch/issues/' + fp['image-alt'] + '/claims', { key: h.key }))
        .status,
    ).toBe(404);
    // Strict with every claim holding: the gate passes.
    const held = await trigger({ siteId: 'shop', sha: 'b'.repeat(40), claims: [fp['color-contrast']] });
    expect(held.passed).toBe(true);
  });

  test('a person accepts the new text by name, once; only a needs_person claim of the org’s own event', async () => {
    const baseId = await scan('accept', 'a'.repeat(40), 'main', { axe: before });
    const fp = await fingerprints(baseId);
    await scan('accept', 'c'.repeat(40), 'fix', { axe: after, passes: passesOf(after) });
    const e = await trigger({
      siteId: 'accept',
      sha: 'c'.repeat(40),
      claims: [fp['image-alt'], fp['color-contrast']],
    });
    // The event is read (and kept) before the acceptance: the next read must show it.
    await h.request('GET', `/api/v1/deploy/${e.id}`, { key: h.key });

    const other = await h.createKey({ org: 'globex', scopes: ['gate', 'read'] });
    expect((await accept(e.id, fp['image-alt'], { name: 'Ada Reviewer' }, other)).status).toBe(404);
    const blank = await accept(e.id, fp['image-alt'], { name: '   ' });
    expect(blank.status).toBe(422);
    expect((blank.body as Problem).errors?.map((x) => x.pointer)).toEqual(['#/name']);
    // A malformed fingerprint names nothing, as a malformed id does.
    expect((await accept(e.id, 'nothex', { name: 'Ada' })).status).toBe(404);
    expect((await accept(e.id, fp['color-contrast'], { name: 'Ada' })).status).toBe(409);
    expect((await accept(e.id, fp['link-name'], { name: 'Ada' })).status).toBe(404);

    const ok = await accept(e.id, fp['image-alt'], { name: 'Ada Reviewer' });
    expect(ok.status).toBe(200);
    const body = ok.body as ClaimAccepted;
    expect(body.claim.accepted?.by).toBe('Ada Reviewer');
    expect(Date.parse(body.claim.accepted!.at)).not.toBeNaN();
    expect((await accept(e.id, fp['image-alt'], { name: 'Grace' })).status).toBe(409);

    const read2 = await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.id}`, { key: h.key });
    expect(read2.body.claims?.items[0].accepted).toEqual(body.claim.accepted);
    const [{ n }] = await h.db('outbox_messages').where({ type: 'deploy.claim_accepted' }).count({ n: '*' });
    expect(Number(n)).toBe(1);
  });

  test('a report names the fix an agent made and a person accepted on the rows of its rule, in every format', async () => {
    const baseId = await scan('acr', 'a'.repeat(40), 'main', { axe: before });
    const fp = await fingerprints(baseId);
    const headId = await scan('acr', 'e'.repeat(40), 'fix', { axe: after, passes: passesOf(after) });
    const by = { agent: 'Claude Code', model: 'claude-x', session_url: 'https://agents.example/s/1' };
    const e = await trigger({
      siteId: 'acr',
      sha: 'e'.repeat(40),
      claims: ['image-alt', 'button-name', 'link-name'].map((rule) => ({ fingerprint: fp[rule], ...by })),
    });
    expect(e.claims?.items.map((c) => c.outcome)).toEqual(['needs_person', 'needs_person', 'not_fixed']);
    // Only the image's new text is accepted; the button's waits for a person.
    expect((await accept(e.id, fp['image-alt'], { name: 'Ada Reviewer' })).status).toBe(200);
    const generate = async (scanId: string) => {
      const res = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
        key: h.key,
        body: { siteId: 'acr', scan_id: scanId, product: { name: 'Shop', version: '1' } },
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    const report = await generate(headId);
    const named = report.criteria.filter((c) => c.agent_fixes);
    expect(
      named.map((c) => [
        c.id,
        c.agent_fixes!.map((f) => [f.rule, f.agent, f.model, f.accepted_by, f.deploy_id]),
      ]),
    ).toEqual([['1.1.1', [['image-alt', 'Claude Code', 'claude-x', 'Ada Reviewer', e.id]]]]);
    const sentence =
      /Rests in part on a fix an agent made and a person accepted: image-alt on \/products\S* \(made by Claude Code, model claude-x; accepted by Ada Reviewer, \d{4}-\d{2}-\d{2}\)\./;
    for (const format of ['md', 'html', 'openacr']) {
      const res = await h.request('GET', `/api/v1/vpat/${report.id}?format=${format}`, { key: h.key });
      // OpenACR is YAML, whose long lines fold: read as YAML.
      const text = format === 'openacr' ? JSON.stringify(yaml.load(res.text)) : res.text;
      expect([format, sentence.test(text)]).toEqual([format, true]);
    }
    // The scan before the change still holds the issue: its report names no fix.
    expect((await generate(baseId)).criteria.filter((c) => c.agent_fixes)).toEqual([]);
  });

  test('a scan without passing elements (native form) never verifies: a text rule’s claim goes to a person', async () => {
    const base = [
      { rule: 'image-alt', impact: 'critical', selector: 'img.hero', html: '<img class="hero">' },
      { rule: 'link-name', impact: 'serious', selector: 'a.cart', html: '<a class="cart"></a>' },
    ];
    const baseId = await scan('native', 'a'.repeat(40), 'main', { issues: base });
    const fp = await fingerprints(baseId);
    // The image now has an alt (it passes, but the native form cannot say so, nor show the text); the link
    // still fails.
    await scan('native', 'd'.repeat(40), 'fix', { issues: [base[1]] }, { claims: [fp['image-alt']] });
    const e = await trigger({ siteId: 'native', sha: 'd'.repeat(40), claims: [fp['link-name']] });
    // The trigger's claims first, then the scan body's.
    expect(e.claims?.items.map((c) => [c.rule, c.outcome])).toEqual([
      ['link-name', 'not_fixed'],
      ['image-alt', 'needs_person'],
    ]);
  });

  test('refused claims store nothing', async () => {
    await scan('refuse', 'a'.repeat(40), 'main', { axe: before });
    const count = async () => Number((await h.db('deploys').count({ n: '*' }))[0].n);
    const n0 = await count();
    for (const claims of [
      ['F'.repeat(64)],
      [{ fingerprint: 'a'.repeat(64), session_url: 'javascript:alert(1)' }],
      [{ fingerprint: 'a'.repeat(64), agent: 'two\nlines' }],
      [{ fingerprint: 'a'.repeat(64), extra: 1 }],
      Array.from({ length: 101 }, () => 'a'.repeat(64)),
    ]) {
      const res = await h.request<Problem>('POST', '/api/v1/deploy/trigger', {
        key: h.key,
        body: { siteId: 'refuse', sha: 'a'.repeat(40), claims },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors?.[0].pointer).toMatch(/^#\/claims/);
    }
    expect(await count()).toBe(n0);
    const bad = await h.request<Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId: 'refuse',
        url: 'http://fixture.test/',
        pages: [{ url: '/', passes: [{ selector: 'img' }] }],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.[0].pointer).toBe('#/pages/0/passes/0/rule');
  });
});
