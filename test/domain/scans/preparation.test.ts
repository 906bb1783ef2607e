import { readFileSync } from 'node:fs';
import type { AxeResults } from 'axe-core';
import type { z } from 'zod';
import { prepareScan } from '../../helpers/prepare-scan.js';
import { CreateScanBody } from '../../../api/schemas/scans/scans.js';

const limits = {
  pagesPerRequest: 10,
  issuesPerRequest: 100,
  pagesPerScan: 10,
  issuesPerScan: 100,
  issueHtmlBytes: 1000,
};
const axeFixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/axe/${name}.json`, import.meta.url), 'utf8')) as AxeResults;
/** pa11y's output, passed on to the schema as it is. */
const pa11yFixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/pa11y/${name}.json`, import.meta.url), 'utf8'));

type ScanPageBody = z.output<typeof CreateScanBody>['pages'][number];
type AxeNode = NonNullable<ScanPageBody['axe']>['violations'][number]['nodes'][number];
type Pa11yIssue = Extract<NonNullable<ScanPageBody['pa11y']>, unknown[]>[number];

const prepare = (body: unknown, l = limits) => prepareScan(CreateScanBody.parse(body), l);

describe('prepareScan', () => {
  test('mixes native, axe and pa11y pages in one scan', () => {
    const result = prepare({
      url: 'http://fixture.test/',
      pages: [
        { url: '/products?utm_source=newsletter', axe: axeFixture('defects') },
        { url: '/account', axe: axeFixture('nested') },
        { url: '/legacy', pa11y: pa11yFixture('htmlcs-issues') },
        { url: '/native', issues: [{ rule: 'custom-rule', impact: 'minor' }] },
      ],
    });
    if (!result.ok) throw new Error(result.error.detail);
    const s = result.scan;
    expect(s.siteId).toBe('fixture.test');
    expect(s.engine).toEqual({ name: 'axe-core', version: '4.14.1' });
    expect(s.pages.map((p) => [p.normalizedUrl, p.issueCount])).toEqual([
      ['http://fixture.test/products', 6],
      ['http://fixture.test/account', 3],
      ['http://fixture.test/legacy', 8],
      ['http://fixture.test/native', 1],
    ]);
    expect(s.summary.issues).toBe(18);
    expect(s.issues.every((i) => /^[0-9a-f]{64}$/.test(i.fingerprint))).toBe(true);
    expect(s.issues.map((i) => i.pageIndex)).toEqual([
      ...Array<number>(6).fill(0),
      ...Array<number>(3).fill(1),
      ...Array<number>(8).fill(2),
      3,
    ]);
    // rules_run: the union of every axe page's rule ids (pa11y and native pages add nothing).
    expect(s.rulesRun).toEqual(expect.arrayContaining(['image-alt', 'document-title', 'landmark-unique']));
    expect(s.rulesRun).not.toContain('custom-rule');
    expect([...s.rulesRun!].sort()).toEqual(s.rulesRun);
  });

  test('the URL axe or pa11y reports stands in for a missing final_url and reveals the login-page trap', () => {
    const login = (url: string) => ({
      ...axeFixture('clean'),
      url: 'https://shop.example/login?next=' + url,
    });
    const result = prepare({
      url: 'https://shop.example/',
      pages: [
        { url: '/a', axe: login('a') },
        { url: '/b', axe: login('b') },
        {
          url: '/c',
          pa11y: { documentTitle: 'Sign in', pageUrl: 'https://shop.example/login?next=c', issues: [] },
        },
        { url: '/d', final_url: 'https://shop.example/d', axe: login('d') },
      ],
    });
    if (!result.ok) throw new Error(result.error.detail);
    expect(result.scan.pages.map((p) => p.finalUrl)).toEqual([
      'https://shop.example/login?next=a',
      'https://shop.example/login?next=b',
      'https://shop.example/login?next=c',
      'https://shop.example/d',
    ]);
    // Three of four pages ended on the login page, whatever `next` parameter it was given.
    expect(result.scan.warnings).toEqual([
      {
        code: 'shared_final_url',
        message: expect.stringContaining('https://shop.example/login') as unknown,
        count: 3,
      },
    ]);
  });

  test('pa11y result objects give the page title; engine defaults to pa11y', () => {
    const result = prepare({
      url: 'http://fixture.test/',
      pages: [{ url: '/p', pa11y: pa11yFixture('axe-result') }],
    });
    if (!result.ok) throw new Error(result.error.detail);
    expect(result.scan.pages[0].title).toBe('Products');
    expect(result.scan.engine).toEqual({ name: 'pa11y', version: null });
    expect(result.scan.rulesRun).toBeNull();
  });

  test('rules_run from the body is merged with axe rules; absent everywhere it is null', () => {
    const given = prepare({ url: 'https://a.example/', rules_run: ['zeta', 'alpha'], pages: [] });
    expect(given.ok && given.scan.rulesRun).toEqual(['alpha', 'zeta']);
    const none = prepare({ url: 'https://a.example/', pages: [{ url: '/', issues: [] }] });
    expect(none.ok && none.scan.rulesRun).toBeNull();
  });

  test('rules_run per page: each axe page its own; the body list only for native and pa11y pages', () => {
    const clean = axeFixture('clean');
    const defects = axeFixture('defects');
    const result = prepare({
      url: 'http://fixture.test/',
      rules_run: ['custom-rule', 'color-contrast'],
      pages: [
        { url: '/clean', axe: clean },
        { url: '/defects', axe: defects },
        { url: '/native', issues: [{ rule: 'custom-rule' }] },
        { url: '/legacy', pa11y: pa11yFixture('htmlcs-issues') },
      ],
    });
    if (!result.ok) throw new Error(result.error.detail);
    const ids = (r: AxeResults) =>
      [
        ...new Set([...r.passes, ...r.violations, ...r.incomplete, ...r.inapplicable].map((x) => x.id)),
      ].sort();
    const [a, b, native, pa11y] = result.scan.pages.map((p) => p.rulesRun);
    expect(a).toEqual(ids(clean));
    expect(b).toEqual(ids(defects));
    // The scan-wide claim does not leak onto axe pages, which say for themselves what ran.
    expect(a).not.toContain('custom-rule');
    expect(native).toEqual(['color-contrast', 'custom-rule']);
    expect(pa11y).toEqual(['color-contrast', 'custom-rule']);
    // The scan keeps the union, as before.
    expect(result.scan.rulesRun).toEqual(
      [...new Set([...ids(clean), ...ids(defects), 'custom-rule'])].sort(),
    );

    const unknown = prepare({
      url: 'http://fixture.test/',
      pages: [
        { url: '/clean', axe: clean },
        { url: '/native', issues: [] },
      ],
    });
    if (!unknown.ok) throw new Error(unknown.error.detail);
    expect(unknown.scan.pages.map((p) => p.rulesRun)).toEqual([ids(clean), null]);
    const nothingRan = prepare({
      url: 'http://fixture.test/',
      rules_run: [],
      pages: [{ url: '/n', issues: [] }],
    });
    expect(nothingRan.ok && nothingRan.scan.pages[0].rulesRun).toEqual([]);
  });

  test('limits: pages and issues are 413 with a pointer; html is truncated and counted', () => {
    const pages = Array.from({ length: 3 }, (_, i) => ({
      url: `/${i}`,
      issues: [{ rule: 'r' }, { rule: 's' }],
    }));
    const small = { ...limits, pagesPerRequest: 2 };
    expect(prepare({ url: 'https://a.example/', pages }, small)).toEqual({
      ok: false,
      error: {
        status: 413,
        pointer: '#/pages',
        detail: expect.stringContaining('2 pages') as unknown,
        limit: { name: 'pages_per_request', value: 2 },
      },
    });
    expect(prepare({ url: 'https://a.example/', pages }, { ...limits, issuesPerRequest: 5 })).toEqual({
      ok: false,
      error: {
        status: 413,
        pointer: '#/pages/2',
        detail: expect.stringContaining('5 issues') as unknown,
        limit: { name: 'issues_per_request', value: 5 },
      },
    });
    const long = prepare(
      { url: 'https://a.example/', pages: [{ url: '/', issues: [{ rule: 'r', html: 'x'.repeat(1500) }] }] },
      limits,
    );
    if (!long.ok) throw new Error('expected ok');
    expect(long.scan.issues[0].html).toHaveLength(1000);
    expect(long.scan.warnings.map((w) => w.code)).toEqual(['html_truncated']);
  });

  test('the issue limit is checked on counts before a page is expanded (a 25 MB body holds millions of axe nodes)', () => {
    const body = CreateScanBody.parse({
      url: 'https://a.example/',
      pages: [
        { url: '/ok', issues: [{ rule: 'r' }] },
        { url: '/huge', axe: { violations: [{ id: 'r', nodes: [] }], incomplete: [{ id: 's', nodes: [] }] } },
      ],
    });
    // Holes: expanding them would throw, counting them does not.
    body.pages[1].axe!.violations[0].nodes = new Array<AxeNode>(60);
    body.pages[1].axe!.incomplete[0].nodes = new Array<AxeNode>(40);
    expect(prepareScan(body, limits)).toMatchObject({
      ok: false,
      error: { status: 413, pointer: '#/pages/1', detail: expect.stringContaining('100 issues') as unknown },
    });
    const pa11y = CreateScanBody.parse({ url: 'https://a.example/', pages: [{ url: '/p', pa11y: [] }] });
    pa11y.pages[0].pa11y = new Array<Pa11yIssue>(101);
    expect(prepareScan(pa11y, limits)).toMatchObject({
      ok: false,
      error: { status: 413, pointer: '#/pages/0' },
    });
  });

  test('a siteId the host cannot provide, or a bad page URL, is 422 with a pointer', () => {
    expect(prepare({ url: 'http://[::1]/', pages: [] })).toMatchObject({
      ok: false,
      error: { status: 422, pointer: '#/siteId' },
    });
    expect(
      prepare({ url: 'https://a.example/', pages: [{ url: '/' }, { url: 'ftp://a.example/x' }] }),
    ).toMatchObject({
      ok: false,
      error: { status: 422, pointer: '#/pages/1/url' },
    });
  });

  test('one scan, one engine version: a page scanned by another version of it is 422 with a pointer', () => {
    const older = { ...axeFixture('nested'), testEngine: { name: 'axe-core', version: '4.10.3' } };
    const mixed = prepare({
      url: 'https://a.example/',
      pages: [
        { url: '/', axe: axeFixture('defects') },
        { url: '/b', axe: older },
      ],
    });
    expect(mixed).toMatchObject({ ok: false, error: { status: 422, pointer: '#/pages/1/axe/testEngine' } });
    if (mixed.ok) return;
    expect(mixed.error.detail).toContain('axe-core 4.10.3');
    expect(mixed.error.detail).toContain('axe-core 4.14.1');
    // A declared engine speaks for the scan: pages of another version are refused against it too.
    const declared = prepare({
      url: 'https://a.example/',
      engine: { name: 'axe-core', version: '4.10.3' },
      pages: [{ url: '/', axe: axeFixture('defects') }],
    });
    expect(declared).toMatchObject({ ok: false, error: { pointer: '#/pages/0/axe/testEngine' } });
    // Another engine altogether (pa11y beside axe), or a version nobody names, is no clash.
    const unnamed = { ...axeFixture('nested'), testEngine: { name: 'axe-core' } };
    const fine = prepare({
      url: 'https://a.example/',
      pages: [
        { url: '/', axe: axeFixture('defects') },
        { url: '/b', axe: unnamed },
        { url: '/c', pa11y: pa11yFixture('htmlcs-issues') },
      ],
    });
    expect(fine.ok).toBe(true);
  });
});
