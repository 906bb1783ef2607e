import type { CreatedScan, ScanDetail, Waiver } from '../../helpers/api-types.js';
import { type DeployEvent } from '../../../core/gate/deploy-event.js';
import { storedGateFingerprints } from '../../helpers/gate-columns.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

/**
 * The gate's identity of issues through the API: a renamed selector is the same issue (explained in
 * the event), elements sharing a fingerprint are counted one by one, and a waiver follows the element.
 */

const sha = (c: string) => c.repeat(40);

interface Issue {
  rule: string;
  impact: string;
  selector?: string;
  html?: string;
}

const cartHtml = '<a href="cart.html" class="nav-link">Cart</a>';
const cartOld: Issue = { rule: 'target-size', impact: 'serious', selector: 'a', html: cartHtml };
const cartNew: Issue = {
  rule: 'target-size',
  impact: 'serious',
  selector: 'a[href$="cart.html"]',
  html: cartHtml,
};
const input = (name: string, id: number): Issue => ({
  rule: 'label',
  impact: 'critical',
  selector: `#\\:r${id}\\:`,
  html: `<input id=":r${id}:" name="${name}" type="text">`,
});

describe.each(dbKinds)('deploy gate matching (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  async function scan(siteId: string, s: string, branch: string, issues: Issue[]) {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId,
        url: 'https://shop.example',
        sha: s,
        branch,
        pages: [{ url: 'https://shop.example/', issues }],
      },
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  const trigger = async (siteId: string, s: string) =>
    (
      await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
        key: h.key,
        body: { siteId, sha: s, fail_on_serious: true },
      })
    ).body;

  test('the cart link axe-core renamed is an existing issue, paired by similarity and explained', async () => {
    const base = await scan('cart', sha('1'), 'main', [cartOld]);
    await scan('cart', sha('2'), 'feature', [cartNew]);
    const e = await trigger('cart', sha('2'));
    expect(e.passed).toBe(true);
    expect(e.counts).toMatchObject({ new: 0, existing: 1, fixed: 0 });
    expect(e.new_issues).toEqual([]);
    expect(e.similar_issues_total).toBe(1);
    expect(e.similar_issues).toEqual([
      expect.objectContaining({
        selector: 'a[href$="cart.html"]',
        match: 'similar',
        similarity: 0.93,
        baseline_issue: {
          fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
          selector: 'a',
          page_url: 'https://shop.example/',
        },
        evidence: expect.stringContaining('selector changed from `a` to `a[href$="cart.html"]`') as unknown,
      }),
    ]);
    const scanView = (await h.request<ScanDetail>('GET', `/api/v1/scans/${base.id}`, { key: h.key })).body;
    // The scan view shows the same identity: the baseline issue's fingerprint.
    expect(scanView.issues[0].fingerprint).toBe(e.similar_issues[0].baseline_issue!.fingerprint);
    // Stored and read back alike.
    expect((await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.id}`, { key: h.key })).body).toEqual(e);
  });

  test('control characters in a selector or its HTML reach the matcher unchanged', async () => {
    // PostgreSQL sends the compared issues as fields and records separated by \x1f and \x1e.
    const html = '<a href="cart.html" class="nav\u001elink">Cart\u001f</a>';
    await scan('ctrl', sha('7'), 'main', [{ ...cartOld, selector: 'a\u001f\u001e', html }]);
    await scan('ctrl', sha('8'), 'feature', [{ ...cartNew, html }]);
    const e = await trigger('ctrl', sha('8'));
    expect(e.counts).toMatchObject({ new: 0, existing: 1, fixed: 0 });
    expect(e.similar_issues).toEqual([
      expect.objectContaining({
        selector: 'a[href$="cart.html"]',
        match: 'similar',
        baseline_issue: expect.objectContaining({ selector: 'a\u001f\u001e' }) as unknown,
      }),
    ]);
  });

  test('scans whose gate columns are not stored (completed before migration 0013) are compared alike', async () => {
    const base = await scan('older', sha('9'), 'main', [cartOld, input('email', 1), input('zip', 2)]);
    const head = await scan('older', sha('a'), 'feature', [cartNew, input('email', 4), input('phone', 5)]);
    expect(await storedGateFingerprints(h, base.id)).toBe(db === 'postgres' ? 3 : null);
    expect(await storedGateFingerprints(h, head.id)).toBe(db === 'postgres' ? 3 : null);
    const stored = await trigger('older', sha('a'));
    expect(stored.counts).toMatchObject({ new: 1, existing: 2, fixed: 1 });
    if (db === 'postgres') await h.db('scan_gate_columns').whereIn('scan_id', [base.id, head.id]).delete();
    expect(await storedGateFingerprints(h, base.id)).toBeNull();
    const aggregated = await trigger('older', sha('a'));
    const view = (e: DeployEvent) => ({
      counts: e.counts,
      passed: e.passed,
      new_issues: e.new_issues,
      similar_issues: e.similar_issues,
    });
    expect(view(aggregated)).toEqual(view(stored));
  });

  test('three inputs sharing a fingerprint against one: two new, and the old one is not listed', async () => {
    await scan('form', sha('3'), 'main', [input('email', 1)]);
    await scan('form', sha('4'), 'feature', [input('phone', 1), input('city', 2), input('email', 3)]);
    const e = await trigger('form', sha('4'));
    expect(e.counts).toMatchObject({ new: 2, existing: 1, fixed: 0 });
    expect(e.new_issues.map((i) => i.selector)).toEqual(['#\\:r1\\:', '#\\:r2\\:']);
    expect(e.new_issues.every((i) => i.match === 'none')).toBe(true);
  });

  test('a waiver by selector on the baseline issue covers the head issue matched to it', async () => {
    await scan('waived', sha('5'), 'main', [cartOld]);
    await scan('waived', sha('6'), 'feature', [
      cartNew,
      { rule: 'target-size', impact: 'serious', selector: '#x' },
    ]);
    const w = await h.request<Waiver>('POST', '/api/v1/waivers', {
      key: h.key,
      body: {
        siteId: 'waived',
        rule: 'target-size',
        selector: 'a',
        reason: 'Vendor header; fix due in 4.2',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(w.status).toBe(201);
    const e = await trigger('waived', sha('6'));
    expect(e.counts).toMatchObject({ new: 1, existing: 0, waived: 1 });
    expect(e.waived_issues).toEqual([
      expect.objectContaining({
        selector: 'a[href$="cart.html"]',
        waiver_id: w.body.id,
        status: 'existing',
        match: 'similar',
      }),
    ]);
    expect(e.new_issues.map((i) => i.selector)).toEqual(['#x']);
  });
});
