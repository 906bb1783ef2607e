import { describeBaseline, noBaselineText, type ScanRef } from '../../../core/gate/baseline.js';
import { pageCoverage } from '../../../core/gate/coverage.js';
import { evaluateGate } from '../../../core/gate/evaluation.js';
import type { GateScanIssue } from '../../../core/gate/issues.js';
import { BUILT_IN_GATE_SETTINGS } from '../../../core/gate/settings.js';
import { compileWaivers } from '../../../core/waivers/match.js';

/** A partial scan (of some pages only) judged by the kernel: only the pages it covers are compared. */

const NOW = '2026-11-23T12:00:00.000Z';
let ref = 0;

function issue(
  page: string,
  fingerprint: string,
  impact: GateScanIssue['impact'] = 'serious',
): GateScanIssue {
  return {
    ref: ++ref,
    fingerprint,
    rule: 'image-alt',
    impact,
    kind: 'violation',
    selector: `#${fingerprint}`,
    page: { url: `https://shop.example${page}` },
  };
}

// The base branch's full scan: two issues on each of /, /cart and /checkout.
const baseline = ['/', '/cart', '/checkout'].flatMap((p) => [issue(p, `${p}-1`), issue(p, `${p}-2`)]);
const pageOf = (j: number) => new URL(baseline[j].page.url).pathname;

function judge(head: GateScanIssue[], covered?: string[]) {
  return evaluateGate({
    siteId: 'shop',
    sha: 'feed000',
    head,
    baseline,
    waivers: compileWaivers([], NOW),
    settings: { ...BUILT_IN_GATE_SETTINGS, fail_on_serious: true },
    ...(covered ? { covered: { keys: new Set(covered), pageOf } } : {}),
  });
}

describe('a partial head scan', () => {
  // The head scanned /cart only: one of its two issues fixed, one new.
  const head = [issue('/cart', '/cart-1'), issue('/cart', '/cart-new')];

  test('is compared on its pages only: the baseline issues of the others are neither fixed nor existing', () => {
    const e = judge(head, ['/cart']);
    expect(e.counts).toMatchObject({ new: 1, existing: 1, fixed: 1 });
    expect(e.counts.byImpact.serious).toEqual({ new: 1, existing: 1, fixed: 1, waived: 0 });
    expect(e.newIssues.map((i) => i.fingerprint)).toEqual(['/cart-new']);
    // New issues are judged as usual.
    expect(e.passed).toBe(false);
    expect(e.reasons.map((r) => r.code)).toEqual(['serious_issues']);
  });

  test('judged as full, the pages it did not scan would all count as fixed', () => {
    expect(judge(head).counts).toMatchObject({ new: 1, existing: 1, fixed: 5 });
  });

  test('a covered page without issues now has its baseline issues fixed', () => {
    const e = judge([], ['/', '/checkout']);
    expect(e.counts).toMatchObject({ new: 0, existing: 0, fixed: 4 });
    expect(e.passed).toBe(true);
  });

  test('under an engine change, only the covered pages can differ', () => {
    const e = evaluateGate({
      siteId: 'shop',
      sha: 'feed000',
      head,
      baseline,
      waivers: compileWaivers([], NOW),
      settings: BUILT_IN_GATE_SETTINGS,
      engineChanged: true,
      covered: { keys: new Set(['/cart']), pageOf },
    });
    expect(e.engineChange).toMatchObject({ appeared: 1, disappeared: 1 });
  });
});

describe('pageCoverage', () => {
  const page = (path: string) => ({ url: `https://pr-7.preview.example${path}`, key: path });

  test('counts the pages compared out of those and the baseline’s others, each page once', () => {
    const { coverage, keys } = pageCoverage(
      [page('/cart'), page('/checkout'), { url: 'https://pr-7.preview.example/cart?utm=x', key: '/cart' }],
      ['/', '/cart', '/checkout', ...Array.from({ length: 11 }, (_, i) => `/p/${i}`)],
    );
    expect([...keys]).toEqual(['/cart', '/checkout']);
    expect(coverage).toEqual({
      scope: 'partial',
      pages_compared: 2,
      pages_total: 14,
      pages: ['https://pr-7.preview.example/cart', 'https://pr-7.preview.example/checkout'],
      message:
        "Compared 2 of 14 pages: this scan covers only the pages listed; the baseline's issues on the other " +
        '12 pages count neither as fixed nor as existing.',
    });
  });

  test('a new page is compared too; without a baseline nothing is compared with', () => {
    expect(pageCoverage([page('/new')], ['/']).coverage.message).toBe(
      "Compared 1 of 2 pages: this scan covers only the pages listed; the baseline's issues on the other 1 page count neither as fixed nor as existing.",
    );
    expect(pageCoverage([page('/a'), page('/b')], null).coverage).toMatchObject({
      pages_compared: 2,
      pages_total: 2,
      message: 'This scan covers only the 2 pages listed, and there is no baseline to compare them with.',
    });
  });

  test('lists at most 100 pages; the count is exact', () => {
    const many = Array.from({ length: 150 }, (_, i) => page(`/p/${i}`));
    const { coverage } = pageCoverage(many, []);
    expect(coverage.pages).toHaveLength(100);
    expect(coverage.pages_compared).toBe(150);
  });
});

describe('the baseline of a partial scan', () => {
  const head: ScanRef = { id: 'scn_h', sha: 'feed000', branch: 'main', createdAt: NOW, scope: 'partial' };

  test('a partial scan on the base branch with no full scan before records nothing: every issue is new', () => {
    const c = describeBaseline({ head, baseBranch: 'main', scan: null, partialOnly: true });
    expect(c.recorded).toBeUndefined();
    expect(c).toMatchObject({ strategy: 'none', scan: null });
    expect(c.reason).toBe(noBaselineText('main', true));
    expect(c.reason).toBe(
      'No full scan of main yet (a partial scan is never a baseline): every issue counts as new. ' +
        'Scan every page of main first, or commit a baseline file.',
    );
  });

  test('a full scan on the base branch with none before records the baseline', () => {
    expect(
      describeBaseline({ head: { ...head, scope: 'full' }, baseBranch: 'main', scan: null }).recorded,
    ).toBe(true);
  });

  test('a named baseline_sha with partial scans only says why it is not one', () => {
    const c = describeBaseline({
      head: { ...head, branch: 'feature' },
      baselineSha: 'abc1234',
      baseBranch: 'main',
      scan: null,
      partialOnly: true,
    });
    expect(c.reason).toBe(
      'The request named baseline_sha abc1234, but that commit has partial scans only, and a partial scan ' +
        'is never a baseline: every issue counts as new.',
    );
  });
});
