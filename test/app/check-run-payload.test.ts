import { newIssuesTable } from '../../core/gate/report-issues.js';
import { gateReportTitle, GITHUB_TEXT_LIMIT } from '../../core/gate/report.js';
import { type GateIssue, type GateResult } from '../../core/gate/deploy-event.js';
import { byImpact, gateIssue, gateResultOf } from '../helpers/gate-result.js';
import { annotationBatches, annotationsFor, buildCheckRun } from '../../app/check-run-payload.js';

function issue(n: number, extra: Partial<GateIssue> = {}): GateIssue {
  return gateIssue({
    rule: 'color-contrast',
    impact: 'serious',
    message: `Element ${n} has insufficient color contrast`,
    selector: `#item-${n}`,
    page_url: 'https://shop.example/cart',
    wcag: ['1.4.3'],
    help_url: 'https://dequeuniversity.com/rules/axe/4.10/color-contrast',
    ...extra,
  });
}

function result(extra: Partial<GateResult> = {}): GateResult {
  return gateResultOf(
    {
      id: 'dep_01',
      siteId: 'shop-web',
      sha: '3f786850e387550fdab836ed7e6dc881de23001b',
      passed: false,
      reasons: [{ code: 'critical_issues', message: '1 new critical issue (fail_on_critical)' }],
      scan_id: 'scn_head',
      baseline: { scan_id: 'scn_base', sha: 'a1b2c3d4e5f6a7b8c9d0', strategy: 'base_branch', reason: '' },
      counts: {
        new: 3,
        existing: 5,
        fixed: 2,
        waived: 1,
        by_impact: {
          critical: { new: 1, existing: 0, fixed: 1, waived: 0 },
          serious: { new: 2, existing: 3, fixed: 0, waived: 1 },
          moderate: { new: 0, existing: 2, fixed: 1, waived: 0 },
          minor: { new: 0, existing: 0, fixed: 0, waived: 0 },
        },
      },
      thresholds: [
        { name: 'fail_on_critical', limit: 0, actual: 1, passed: false },
        { name: 'max_total', limit: 10, actual: 3, passed: true },
      ],
      new_issues: [issue(1, { impact: 'critical', rule: 'image-alt' }), issue(2), issue(3)],
    },
    extra,
  );
}

describe('check-run payload', () => {
  test('conclusion, name, sha, external id and details url come from the deploy event', () => {
    const run = buildCheckRun(result(), { detailsUrl: 'https://gate.example/api/v1/deploy/dep_01' });
    expect(run).toMatchObject({
      name: 'a11y-gate / shop-web',
      head_sha: '3f786850e387550fdab836ed7e6dc881de23001b',
      external_id: 'dep_01',
      details_url: 'https://gate.example/api/v1/deploy/dep_01',
      status: 'completed',
      conclusion: 'failure',
    });
    expect(buildCheckRun(result({ passed: true, reasons: [] }), { detailsUrl: 'x' }).conclusion).toBe(
      'success',
    );
  });

  test('title carries the key figures', () => {
    expect(gateReportTitle(result())).toBe('3 new accessibility issues (1 critical, 2 serious)');
    const one = result({
      counts: { new: 1, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({ critical: 1 }) },
    });
    expect(gateReportTitle(one)).toBe('1 new accessibility issue (1 critical)');
    const moderate = result({
      counts: { new: 2, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({ moderate: 2 }) },
    });
    expect(gateReportTitle(moderate)).toBe('2 new accessibility issues');
    expect(
      gateReportTitle(
        result({
          passed: true,
          reasons: [],
          counts: { new: 0, existing: 4, fixed: 0, waived: 0, by_impact: byImpact({}) },
        }),
      ),
    ).toBe('No new accessibility issues');
    expect(
      gateReportTitle(
        result({
          reasons: [{ code: 'no_scan', message: 'no scan' }],
          counts: { new: 0, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({}) },
        }),
      ),
    ).toBe('No accessibility scan for this commit');
  });

  test('a gate failed on existing issues (new_only false) still titles its figures', () => {
    const existingOnly = result({
      reasons: [{ code: 'critical_issues', message: '12 issues (max_total 10)' }],
      counts: {
        new: 0,
        existing: 12,
        fixed: 0,
        waived: 0,
        by_impact: {
          critical: { new: 0, existing: 3, fixed: 0, waived: 0 },
          serious: { new: 0, existing: 2, fixed: 0, waived: 0 },
          moderate: { new: 0, existing: 7, fixed: 0, waived: 0 },
          minor: { new: 0, existing: 0, fixed: 0, waived: 0 },
        },
      },
      new_issues: [],
    });
    expect(gateReportTitle(existingOnly)).toBe('12 accessibility issues (3 critical, 2 serious), none new');
  });

  test('summary shows counts by impact, every threshold with limit and actual, the baseline and why', () => {
    const { summary } = buildCheckRun(result(), {
      detailsUrl: 'https://gate.example/api/v1/deploy/dep_01',
    }).output;
    expect(summary).toContain('❌ Accessibility gate failed');
    expect(summary).toContain('`critical_issues`: 1 new critical issue (fail_on_critical)');
    expect(summary).toContain('| critical | 1 | 0 | 1 | 0 |');
    expect(summary).toContain('| serious | 2 | 3 | 0 | 1 |');
    expect(summary).toContain('| **Total** | **3** | **5** | **2** | **1** |');
    expect(summary).toContain('| `fail_on_critical` | 0 | 1 | ❌ fail |');
    expect(summary).toContain('| `max_total` | 10 | 3 | ✅ pass |');
    expect(summary).toContain('Compared with scan `scn_base` of commit `a1b2c3d4e5f6`');
    expect(summary).toContain('latest scan on the site’s base branch');
    expect(summary).toContain('1 waived issue is not counted');
    expect(summary).toContain('[`dep_01`](https://gate.example/api/v1/deploy/dep_01)');
  });

  test('no baseline says every issue counts as new', () => {
    const { summary } = buildCheckRun(
      result({ baseline: { scan_id: null, sha: null, strategy: 'none', reason: '' } }),
      {
        detailsUrl: 'x',
      },
    ).output;
    expect(summary).toContain('No baseline: every issue counts as new.');
  });

  test("no scan of the base branch: the summary gives the gate's reason, which says what to do", () => {
    const reason =
      'No scan of main yet: every issue counts as new. Scan main first, or commit a baseline file.';
    const { summary } = buildCheckRun(
      result({ baseline: { scan_id: null, sha: null, strategy: 'none', reason } }),
      { detailsUrl: 'x' },
    ).output;
    expect(summary).toContain(`#### Baseline\n\n${reason}\n`);
  });

  test('a partial scan: the pages compared, before the counts, each page as code', () => {
    const message =
      "Compared 2 of 14 pages: this scan covers only the pages listed; the baseline's issues on the other 12 pages count neither as fixed nor as existing.";
    const pages = Array.from({ length: 22 }, (_, i) => `https://shop.example/p/${i}`);
    const run = buildCheckRun(
      result({ coverage: { scope: 'partial', pages_compared: 23, pages_total: 30, pages, message } }),
      { detailsUrl: 'x' },
    );
    const summary = run.output.summary;
    expect(summary).toContain(
      `#### Pages compared\n\n${message}\n\n- \`https://shop.example/p/0\`\n- \`https://shop.example/p/1\`\n`,
    );
    // The summary lists 20; the event up to 100, and the count is exact.
    expect(summary).toContain('- `https://shop.example/p/19`\n- …and 3 more in the deploy event\n');
    expect(summary).not.toContain('p/20');
    expect(summary.indexOf('#### Pages compared')).toBeLessThan(summary.indexOf('#### Issues by impact'));
    expect(buildCheckRun(result(), { detailsUrl: 'x' }).output.summary).not.toContain('Pages compared');
  });

  test("the gate's own baseline reason is shown; without a head scan nothing was compared", () => {
    const withReason = buildCheckRun(
      result({
        baseline: {
          scan_id: null,
          sha: null,
          strategy: 'baseline_sha',
          reason: 'The request named baseline_sha abc, but that commit has no scan.',
        },
      }),
      { detailsUrl: 'x' },
    ).output.summary;
    expect(withReason).toContain(
      'No baseline (strategy `baseline_sha`): The request named baseline_sha abc, but that commit has no scan.',
    );
    const noScan = buildCheckRun(
      result({ baseline: null, reasons: [{ code: 'no_scan', message: 'No scan of this commit.' }] }),
      { detailsUrl: 'x' },
    ).output.summary;
    expect(noScan).toContain('No scan of this commit, so nothing was compared.');
  });

  test('new issues are a numbered list; newlines and backticks in user text cannot break it', () => {
    const r = result({
      new_issues: [
        issue(1, {
          selector: 'a[title="x|y"]\nb',
          html: '<a title="x`y"\n  href="/z">',
          message: 'Fix all of the following:\n  Element has no name\n  Element is `odd`',
          source: { path: 'src/A.tsx', line: 7, column: 3, method: 'attribute' },
        }),
      ],
      repository: 'acme/shop',
    });
    const { text } = buildCheckRun(r, { detailsUrl: 'x' }).output;
    const lines = text.split('\n');
    const first = lines.findIndex((l) => l.startsWith('1. '));
    expect(lines[first]).toMatch(/^1\. \*\*Element has no name \(color-contrast\)\*\* · serious · /);
    expect(lines.slice(first + 1, first + 7)).toEqual([
      `   - Source: [\`src/A.tsx:7\`](https://github.com/acme/shop/blob/${r.sha}/src/A.tsx#L7) · page \`https://shop.example/cart\``,
      // The element's own backtick stays: the code span's fence is longer than any run inside it.
      '   - Element: ``<a title="x`y" href="/z">``',
      '   - Fix all of these:',
      '     - Element has no name',
      '     - Element is \\`odd\\`',
      '   - WCAG 1.4.3',
    ]);
    expect(text).toContain('npx a11y-gate scan https://shop.example/cart --source-root .');
  });

  test('a help link or a rule with markdown characters cannot break the table or the link', () => {
    const r = result({
      new_issues: [
        issue(1, {
          rule: 'my]rule[x',
          help_url: 'https://dequeuniversity.com/a|b (c)`d`<e>',
          message: 'm',
        }),
      ],
    });
    const { text } = buildCheckRun(r, { detailsUrl: 'x' }).output;
    const row = text.split('\n').find((l) => l.startsWith('1. '))!;
    expect(row).toContain('[`my]rule[x`](https://dequeuniversity.com/a%7Cb%20%28c%29%60d%60%3Ce%3E)');
  });

  test("a help link to anywhere but rule documentation is not linked: the scan chooses it, the App's name would carry it", () => {
    const r = result({
      new_issues: [issue(1, { rule: 'approved', help_url: 'https://evil.example/merge-now', message: 'm' })],
    });
    const { text } = buildCheckRun(r, { detailsUrl: 'x' }).output;
    const row = text.split('\n').find((l) => l.startsWith('1. '))!;
    expect(row).toMatch(/ · `approved`$/);
    expect(text).not.toContain('evil.example');
  });

  test('a huge issue list is cut under 65,535 characters with a note of what was left out', () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      issue(i, { selector: `#very-long-selector-${'x'.repeat(40)}-${i}` }),
    );
    const r = result({ new_issues: many, new_issues_total: 5000, counts: { ...result().counts, new: 5000 } });
    const { text, summary } = buildCheckRun(r, { detailsUrl: 'x' }).output;
    expect(text.length).toBeLessThanOrEqual(GITHUB_TEXT_LIMIT);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(GITHUB_TEXT_LIMIT);
    const shown = text.split('\n').filter((l) => /^\d+\. \*\*/.test(l)).length;
    expect(shown).toBeGreaterThan(100);
    expect(shown).toBeLessThan(3000);
    // Some rows were cut for size (they are in the deploy event), the rest are beyond its list of 3,000.
    expect(text).toContain(
      `_${5000 - shown} more new issues are not listed here: the deploy event lists ${3000 - shown} of them ` +
        '(its first 3000 of 5000); the scan `scn_head` has every issue._',
    );
    expect(summary.length).toBeLessThanOrEqual(GITHUB_TEXT_LIMIT);
  });

  test("new issues beyond the deploy event's own list are not said to be in the deploy event", () => {
    const capped = result({ new_issues: [issue(1), issue(2), issue(3)], new_issues_total: 120 });
    const { text } = buildCheckRun(capped, { detailsUrl: 'x' }).output;
    expect(text).toContain(
      '_117 more new issues are not listed here, nor in the deploy event, which lists the first 3 of 120; ' +
        'the scan `scn_head` has every issue._',
    );
    expect(text).not.toContain('the deploy event lists them');

    const listedAll = result({
      new_issues: [issue(1)],
      new_issues_total: 1,
      counts: { ...result().counts, new: 1 },
    });
    expect(buildCheckRun(listedAll, { detailsUrl: 'x' }).output.text).not.toContain('more new');

    // Cut only to fit GitHub's limit: the deploy event does list the rest.
    const long = Array.from({ length: 100 }, (_, i) => issue(i, { selector: `#${'s'.repeat(190)}-${i}` }));
    const cut = result({ new_issues: long, new_issues_total: 100, counts: { ...result().counts, new: 100 } });
    const small = newIssuesTable(cut, 5_000);
    expect(Buffer.byteLength(small)).toBeLessThanOrEqual(5_000);
    expect(small).toMatch(/_\d+ more new issues are not listed here; the deploy event lists them\._/);
  });

  test('a summary over the limit (many reasons) is cut with a note', () => {
    const reasons = Array.from({ length: 2000 }, (_, i) => ({
      code: 'critical_issues' as const,
      message: `reason ${i} ${'y'.repeat(50)}`,
    }));
    const { summary } = buildCheckRun(result({ reasons }), { detailsUrl: 'x' }).output;
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(GITHUB_TEXT_LIMIT);
    expect(summary).toContain('Summary cut to fit GitHub’s limit');
  });

  test('issues with a source location become annotations; level by impact', () => {
    const annotations = annotationsFor([
      issue(1, {
        impact: 'critical',
        source: { path: 'src/Cart.tsx', line: 42, column: null, method: null },
      }),
      issue(2, {
        impact: 'moderate',
        source: { path: 'src/Nav.tsx', line: null, column: null, method: null },
      }),
      issue(3),
    ]);
    expect(annotations).toEqual([
      {
        path: 'src/Cart.tsx',
        start_line: 42,
        end_line: 42,
        annotation_level: 'failure',
        title: 'color-contrast (critical)',
        message: 'Element 1 has insufficient color contrast (color-contrast)',
        raw_details:
          'Page: https://shop.example/cart\nSelector: #item-1\nWCAG: 1.4.3\nHelp: https://dequeuniversity.com/rules/axe/4.10/color-contrast',
      },
      expect.objectContaining({ path: 'src/Nav.tsx', start_line: 1, annotation_level: 'warning' }),
    ]);
  });

  test('a located column is annotated on its one line; the message lists the fix steps', () => {
    const [a] = annotationsFor([
      issue(1, {
        html: '<img src="/p.jpg">',
        message:
          'Fix any of the following:\n  Element does not have an alt attribute\n  Element has no title attribute',
        source: { path: 'site/gallery.html', line: 11, column: 9, method: 'static' },
      }),
    ]);
    expect(a).toMatchObject({ start_line: 11, end_line: 11, start_column: 9, end_column: 9 });
    expect(a.message).toBe(
      'Element does not have an alt attribute (color-contrast)\nElement: <img src="/p.jpg">\n' +
        'Fix one of these:\n- Element does not have an alt attribute\n- Element has no title attribute',
    );
  });

  test('annotations go in batches of 50', () => {
    const annotations = annotationsFor(
      Array.from({ length: 120 }, (_, i) =>
        issue(i, { source: { path: 'a.html', line: i + 1, column: null, method: null } }),
      ),
    );
    expect(annotationBatches(annotations).map((b) => b.length)).toEqual([50, 50, 20]);
    expect(annotationBatches([])).toEqual([]);
  });
});
