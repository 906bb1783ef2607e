import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineText, readBaseline, type BaselineEntry } from '../../scanner/baseline-file.js';
import { judgeLocally } from '../../scanner/local-gate.js';
import type { LocalGateOptions } from '../../cli/options.js';
import { issueFingerprint } from '../../core/matching/fingerprint.js';
import type { Finding } from '../../scanner/findings.js';

const entry = (
  page: string,
  rule: string,
  selector: string,
  extra: Partial<BaselineEntry> = {},
): BaselineEntry => ({
  page,
  rule,
  impact: 'serious',
  selector,
  fingerprint: issueFingerprint({ rule, pageKey: page, selector }),
  html: `<a class="${selector.slice(1)}">x</a>`,
  ...extra,
});

describe('the baseline file', () => {
  test('is sorted by page, rule and selector, with one key order, whatever order the scan found them in', () => {
    const a = entry('/', 'link-name', '.b');
    const b = entry('/', 'color-contrast', '.a', { reason: 'brand colours', until: '2027-01-31' });
    const c = entry('/about', 'color-contrast', '.a', { source: 'about.html:4' });
    const d = entry('/', 'link-name', '.a');
    const text = baselineText([a, b, c, d]);
    expect(baselineText([d, c, b, a])).toBe(text);
    expect(baselineText((JSON.parse(text) as { issues: BaselineEntry[] }).issues)).toBe(text);
    const issues = (JSON.parse(text) as { issues: BaselineEntry[] }).issues;
    expect(issues.map((e) => `${e.page} ${e.rule} ${e.selector}`)).toEqual([
      '/ color-contrast .a',
      '/ link-name .a',
      '/ link-name .b',
      '/about color-contrast .a',
    ]);
    expect(Object.keys(issues[0])).toEqual([
      'page',
      'rule',
      'impact',
      'selector',
      'fingerprint',
      'html',
      'reason',
      'until',
    ]);
    expect(text.endsWith('}\n')).toBe(true);
  });

  test('holds an element found twice once, with its count', () => {
    const twice = JSON.parse(
      baselineText([entry('/', 'link-name', '.a'), entry('/', 'link-name', '.a')]),
    ) as {
      issues: BaselineEntry[];
    };
    expect(twice.issues).toEqual([expect.objectContaining({ selector: '.a', count: 2 })]);
  });

  test('a file that is not a baseline is refused with its place named; no file is no baseline', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-baseline-'));
    const file = path.join(dir, 'baseline.json');
    expect(await readBaseline(file)).toBeNull();
    fs.writeFileSync(
      file,
      JSON.stringify({ version: 1, issues: [{ ...entry('/', 'x', '.a'), until: '31/01/2027' }] }),
    );
    await expect(readBaseline(file)).rejects.toThrow(`${file}: "issues[0].until" must be a date, YYYY-MM-DD`);
    fs.writeFileSync(file, '{"version":2,"issues":[]}');
    await expect(readBaseline(file)).rejects.toThrow(`${file}: "version"`);
  });
});

const finding = (page: string, rule: string, selector: string): Finding => ({
  pageUrl: `http://127.0.0.1:8080${page}`,
  rule,
  kind: 'violation',
  impact: 'critical',
  message: 'Fix any of the following: x',
  selector,
  html: `<a class="${selector.slice(1)}">x</a>`,
  helpUrl: '',
  help: rule,
  description: '',
  tags: [],
  source: null,
});

const options = (extra: Partial<LocalGateOptions> = {}): LocalGateOptions => ({
  baselineFile: 'b.json',
  update: false,
  prune: false,
  failOnCritical: null,
  failOnSerious: null,
  maxNewIssues: null,
  ignores: [],
  pages: [],
  configFile: null,
  ...extra,
});

describe('the gate against the baseline file', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  test('an entry past its date counts as new, not as fixed; one still in date keeps its issue existing', () => {
    const found = [finding('/', 'image-alt', '.a'), finding('/', 'image-alt', '.b')];
    const baseline = [
      { ...entry('/', 'image-alt', '.a'), until: '2026-05-31' },
      { ...entry('/', 'image-alt', '.b'), until: '2026-06-01' },
      entry('/gone', 'image-alt', '.c'),
    ];
    const v = judgeLocally(found, baseline, options(), now);
    expect(v.evaluation.counts).toMatchObject({ new: 1, existing: 1, fixed: 1 });
    expect(v.newFindings.map((f) => f.selector)).toEqual(['.a']);
    expect(v.lapsed.map((e) => e.selector)).toEqual(['.a']);
    expect(v.fixed.map((e) => e.page)).toEqual(['/gone']);
    expect(v.evaluation.passed).toBe(false);
    // Recorded again, an entry keeps its reason and date: a person changes them, not a scan.
    expect(v.recorded.map((e) => e.until)).toEqual(['2026-05-31', '2026-06-01']);
  });

  test('with no baseline every violation fails (as pa11y-ci), unless the thresholds say otherwise', () => {
    const found = [finding('/', 'link-name', '.a')];
    expect(judgeLocally(found, null, options(), now).evaluation.passed).toBe(false);
    expect(
      judgeLocally(found, null, options({ maxNewIssues: 1, failOnCritical: false }), now).evaluation.passed,
    ).toBe(true);
  });

  test('a partial scan is compared on the pages it scanned: entries of the others are kept, neither fixed nor existing', () => {
    const baseline = [
      entry('/', 'image-alt', '.home'),
      entry('/cart', 'image-alt', '.qty'),
      entry('/cart', 'image-alt', '.total'),
      entry('/checkout', 'image-alt', '.pay'),
    ];
    // The cart and a page scanned without findings; .total fixed, .promo new.
    const found = [finding('/cart', 'image-alt', '.qty'), finding('/cart', 'link-name', '.promo')];
    const scanned = ['http://127.0.0.1:8080/cart', 'http://127.0.0.1:8080/about'];
    const v = judgeLocally(found, baseline, options(), now, scanned);
    expect(v.evaluation.counts).toMatchObject({ new: 1, existing: 1, fixed: 1 });
    expect(v.fixed.map((e) => e.selector)).toEqual(['.total']);
    expect(v.kept.map((e) => e.page)).toEqual(['/', '/checkout']);
    expect(v.coverage).toMatchObject({ pages_compared: 2, pages_total: 4 });
    // Recorded (--update-baseline), the file keeps the pages not scanned; --prune drops only `fixed`.
    expect(v.recorded.map((e) => `${e.page} ${e.selector}`).sort()).toEqual([
      '/ .home',
      '/cart .promo',
      '/cart .qty',
      '/checkout .pay',
    ]);
    // The same scan taken as full: every entry of the pages it did not scan is fixed.
    const full = judgeLocally(found, baseline, options(), now);
    expect(full.fixed.map((e) => e.selector)).toEqual(['.home', '.total', '.pay']);
    expect(full.coverage).toBeNull();
  });

  test('ignores match every criterion they name, and stop at their date', () => {
    const found = [finding('/admin/users', 'image-alt', '.a'), finding('/', 'image-alt', '.a')];
    const ignore = { rule: 'image-alt', url: '/admin/**', reason: 'internal pages' };
    const v = judgeLocally(found, [], options({ ignores: [ignore] }), now);
    expect(v.evaluation.counts).toMatchObject({ new: 1, waived: 1 });
    expect(v.recorded.map((e) => e.page)).toEqual(['/']);
    const lapsed = judgeLocally(found, [], options({ ignores: [{ ...ignore, until: '2026-01-01' }] }), now);
    expect(lapsed.evaluation.counts).toMatchObject({ new: 2, waived: 0 });
    expect(lapsed.lapsedIgnores).toHaveLength(1);
  });
});
