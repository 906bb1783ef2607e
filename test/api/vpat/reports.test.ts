import { readFileSync } from 'node:fs';
import { Ajv, type SchemaObject } from 'ajv';
import axe from 'axe-core';
import yaml from 'js-yaml';
import { closeBrowser, runAxe } from '../../helpers/axe-browser.js';
import { chromium, partAvailable } from '../../helpers/requirements.js';
import type {
  CreatedScan,
  Problem,
  ReportCriterion,
  ScanDetail,
  VpatReport,
  Waiver,
} from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { eventPayloads } from '../../helpers/outbox.js';

// An axe-core result, passed through to the API as it is.
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/axe/${name}.json`, import.meta.url), 'utf8')) as unknown;
const openAcrSchema = JSON.parse(
  readFileSync(new URL('../../fixtures/openacr/openacr-0.1.0.json', import.meta.url), 'utf8'),
) as SchemaObject;
const validateOpenAcr = new Ajv({ allErrors: true, strict: false }).compile(openAcrSchema);

/** The parts of an OpenACR document (YAML) that the tests read. */
interface OpenAcr {
  author: { email: string };
  catalog: string;
  notes: string;
  chapters: Record<
    string,
    {
      criteria: Array<{
        num: string;
        components: Array<{ name: string; adherence: { level: string; notes?: string } }>;
      }>;
    }
  >;
}

const product = { name: 'Shop', version: '2026.11', vendor: 'Acme Corp', contact: 'a11y@acme.test' };

afterAll(async () => {
  await closeBrowser();
});

describe.each(dbKinds)('VPAT / ACR (%s)', (db) => {
  const h = useHarness({ db });
  let key: string;
  let readKey: string;
  let otherKey: string;
  let axeScanId: string;

  beforeAll(async () => {
    key = await h.createKey({ org: 'acme', name: 'compliance-bot' });
    readKey = await h.createKey({ org: 'acme', scopes: ['read'] });
    otherKey = await h.createKey({ org: 'globex' });
    // Real axe-core output of three pages (test/fixtures/axe): defects, defects in shadow DOM/iframe, clean.
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key,
      body: {
        siteId: 'shop',
        url: 'http://fixture.test/',
        branch: 'main',
        sha: 'a'.repeat(40),
        pages: [
          { url: 'http://fixture.test/products', axe: fixture('defects') },
          { url: 'http://fixture.test/account', axe: fixture('nested') },
          { url: 'http://fixture.test/about', axe: fixture('clean') },
        ],
      },
    });
    expect(res.status).toBe(201);
    axeScanId = res.body.id;
  });

  async function scan(body: Record<string, unknown>, k = key): Promise<string> {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', { key: k, body });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function generate<T>(body: Record<string, unknown>, k = key) {
    return h.request<T>('POST', '/api/v1/vpat/generate', { key: k, body: { product, ...body } });
  }

  const find = (report: VpatReport, id: string) => report.criteria.find((c) => c.id === id);
  const row = (report: VpatReport, id: string): ReportCriterion => {
    const found = find(report, id);
    if (!found) throw new Error(`${id} is not a row of report ${report.id}`);
    return found;
  };

  test('a contact string is an e-mail only when it is a valid address, so the answer matches its schema', async () => {
    // "a@b" has an @ but is no address: it is kept as a name (the harness checks the 201 against OpenAPI).
    const res = await generate<VpatReport>({ siteId: 'shop', product: { ...product, contact: 'a@b' } });
    expect(res.status).toBe(201);
    expect(res.body.product.contact).toEqual({ name: 'a@b' });
  });

  test('a report from real axe-core output has the levels the pages earn, and is stored with its event', async () => {
    const res = await generate<VpatReport>({ siteId: 'shop' });
    expect(res.status).toBe(201);
    const r = res.body;
    expect(res.headers.get('location')).toBe(`/api/v1/vpat/${r.id}`);
    expect(r.id).toMatch(/^vpt_/);
    expect(r).toMatchObject({
      siteId: 'shop',
      scan_id: axeScanId,
      edition: 'wcag',
      wcag_version: '2.2',
      level: 'AA',
    });
    expect(r.criteria).toHaveLength(56);
    // image-alt fails on 2 of 3 pages (defects, and the iframe of nested): more than half.
    expect(row(r, '1.1.1')).toMatchObject({ conformance: 'does-not-support', source: 'evidence' });
    expect(row(r, '1.1.1').evidence).toMatchObject({
      rules: ['image-alt'],
      pages_affected: 2,
      pages_total: 3,
    });
    expect(row(r, '1.1.1').remarks).toContain('2 issues on 2 of 3 pages');
    // color-contrast fails on 1 of 3 pages (and one more result there needs review).
    expect(row(r, '1.4.3')).toMatchObject({ conformance: 'partially-supports' });
    expect(row(r, '1.4.3').evidence.incomplete).toBe(1);
    // button-name, label, link-name on the defects page and button-name in the shadow DOM.
    expect(row(r, '4.1.2').conformance).toBe('does-not-support');
    expect(row(r, '4.1.2').evidence.rules).toEqual(['button-name', 'label', 'link-name']);
    expect(row(r, '2.4.4').conformance).toBe('partially-supports');
    // html-has-lang ran on every page and passed: evidence for a person to confirm, never a Supports by itself.
    expect(row(r, '3.1.1')).toMatchObject({
      conformance: 'not-evaluated',
      basis: 'rules-passed',
      needs_review: true,
    });
    expect(row(r, '3.1.1').remarks).toContain(
      'No automated failures: rules html-has-lang, html-lang-valid and html-xml-lang-mismatch ran on 3 of 3 pages',
    );
    expect(r.criteria.filter((c) => c.conformance === 'supports')).toEqual([]);
    // No rule tests 1.3.3: a person has to.
    expect(row(r, '1.3.3')).toMatchObject({ conformance: 'not-evaluated', basis: 'no-coverage' });
    expect(row(r, '4.1.1')).toMatchObject({ conformance: 'not-applicable', source: 'default' });
    expect(r.status).toBe('draft');
    const counted = Object.values(r.summary.by_conformance as Record<string, number>).reduce(
      (a, b) => a + b,
      0,
    );
    expect(counted).toBe(56);
    expect(r.created_by).toMatchObject({ name: 'compliance-bot' });
    expect(r.product.contact).toEqual({ email: 'a11y@acme.test' });

    const get = await h.request<VpatReport>('GET', `/api/v1/vpat/${r.id}`, { key: readKey });
    expect(get.status).toBe(200);
    // The stored report as generated, and what the read adds: whether newer evidence exists.
    const { behind, ...stored } = get.body as VpatReport & { behind?: { summary: string } };
    expect(stored).toEqual(r);
    expect(behind?.summary).toBe('up to date');

    const events = await eventPayloads(h.db, 'vpat.generated', 'acme');
    const event = events.find((p) => p.data.id === r.id)!;
    expect(event.data).toMatchObject({
      id: r.id,
      siteId: 'shop',
      scan_id: axeScanId,
      status: 'draft',
      edition: 'wcag',
    });
    expect(event.data.summary).toEqual(r.summary);
  });

  test('HTML: one accessible, printable page in the ITI layout that axe-core finds no violations on', async () => {
    // Every part of the page: contact links, a fresh and a stale override, automated-only Supports rows.
    const generated = await generate<VpatReport>({
      siteId: 'shop',
      edition: 'int',
      product: {
        ...product,
        description: 'Online shop <beta>',
        contact: { name: 'Ada', email: 'a11y@acme.test', website: 'https://acme.test/a11y' },
      },
      overrides: [
        { criterion: '1.3.3', conformance: 'supports', remarks: 'Checked by hand.', author: 'Ada' },
        {
          criterion: '1.4.3',
          conformance: 'supports',
          remarks: 'Fixed, see https://acme.test/x.',
          author: 'Ada',
        },
      ],
    });
    expect(generated.status).toBe(201);
    const id = generated.body.id;
    const res = await h.request('GET', `/api/v1/vpat/${id}?format=html`, { key: readKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = res.text;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<caption>Table 1: Success Criteria, Level A</caption>');
    expect(html).toContain('<caption>Chapter 4: Hardware</caption>');
    expect(html).toContain(
      '<th scope="col">Criteria</th><th scope="col">Conformance Level</th><th scope="col">Remarks and Explanations</th>',
    );
    expect(html).toContain('<th scope="row">1.1.1 Non-text Content (Level A)</th><td>Does Not Support</td>');
    expect(html).not.toMatch(/<script|<link /);
    expect(html).toContain('(stale override)');
    expect(html).toContain('Reviewed by Ada');
    expect(html).toContain('Needs human confirmation.');
    // Every rule of the installed axe-core, not just the default set: target-size (WCAG 2.2 AA 2.5.8) and the
    // experimental table and heading rules run only when selected.
    if (!partAvailable(chromium, 'the axe-core check of the HTML report')) return;
    const everyRule = axe.getRules().map((r) => r.ruleId);
    const result = await runAxe(html, { runOnly: everyRule });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
    expect(result.passes.length).toBeGreaterThan(10);
    const ran = [...result.passes, ...result.inapplicable, ...result.incomplete].map((r) => r.id);
    expect(ran).toEqual(expect.arrayContaining(['target-size', 'td-has-header', 'color-contrast']));
  }, 60_000);

  test('Markdown: the same tables', async () => {
    const id = (await generate<VpatReport>({ siteId: 'shop', level: 'A' })).body.id;
    const res = await h.request('GET', `/api/v1/vpat/${id}?format=md`, { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(res.text).toContain('# Shop 2026.11 Accessibility Conformance Report');
    expect(res.text).toContain('| Criteria | Conformance Level | Remarks and Explanations |');
    expect(res.text).toMatch(
      /\| 1\.1\.1 Non-text Content \(Level A\) \| Does Not Support \| 2 issues on 2 of 3 pages/,
    );
    expect(res.text).not.toContain('Table 2: Success Criteria, Level AA');
  });

  test.each(['wcag', '508', 'eu', 'int'])(
    'OpenACR (%s edition) validates against the OpenACR schema',
    async (edition) => {
      const id = (await generate<VpatReport>({ siteId: 'shop', edition, level: 'AAA', wcag_version: '2.1' }))
        .body.id;
      const res = await h.request('GET', `/api/v1/vpat/${id}?format=openacr`, { key });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
      const doc = yaml.load(res.text) as OpenAcr;
      expect(validateOpenAcr(doc)).toBe(true);
      expect(validateOpenAcr.errors ?? null).toBeNull();
      expect(doc.author.email).toBe('a11y@acme.test');
      // The published OpenACR catalog that holds every row (there is no 2.5 EU or INT catalog for WCAG 2.1).
      expect(doc.catalog).toBe(
        {
          wcag: '2.5-edition-wcag-2.1-508-en',
          '508': '2.5-edition-wcag-2.1-508-en',
          eu: '2.5-edition-wcag-2.2-508-eu-en',
          int: '2.5-edition-wcag-2.2-508-eu-en',
        }[edition],
      );
      const a = doc.chapters.success_criteria_level_a.criteria;
      expect(a.find((c) => c.num === '1.1.1')!.components[0]).toMatchObject({
        name: 'web',
        adherence: { level: 'does-not-support' },
      });
      // 4.1.1 in WCAG 2.1: always Supports.
      expect(a.find((c) => c.num === '4.1.1')!.components[0].adherence.level).toBe('supports');
      // Not evaluated below AAA is marked as needing review; the report says it is a draft.
      const notEvaluated = a.find((c) => c.num === '1.3.3')!.components[0].adherence;
      expect(notEvaluated).toMatchObject({ level: 'not-evaluated' });
      expect(notEvaluated.notes).toMatch(/^Not evaluated/);
      expect(doc.notes).toMatch(/^Draft report/);
      if (edition === '508' || edition === 'int') {
        expect(doc.chapters.hardware.criteria[0].components[0]).toMatchObject({
          name: 'none',
          adherence: { level: 'not-applicable' },
        });
      }
      if (edition === 'eu' || edition === 'int') expect(doc.chapters.en_301_549_hardware).toBeDefined();
    },
  );

  test('overrides win, keep their author and time, and go stale when the evidence contradicts them', async () => {
    const res = await generate<VpatReport>({
      siteId: 'shop',
      overrides: [
        {
          criterion: '1.3.3',
          conformance: 'supports',
          remarks: 'Instructions never rely on shape or position alone.',
          author: 'Ada Reviewer',
        },
        {
          criterion: '1.4.3',
          conformance: 'supports',
          remarks: 'Contrast fixed in the design system.',
          author: 'Grace Officer',
        },
      ],
    });
    expect(res.status).toBe(201);
    const r = res.body;
    expect(row(r, '1.3.3')).toMatchObject({
      conformance: 'supports',
      source: 'override',
      remarks: 'Instructions never rely on shape or position alone.',
    });
    expect(row(r, '1.3.3').override).toMatchObject({
      author: 'Ada Reviewer',
      stale: false,
      inherited_from: null,
    });
    expect(Date.parse(row(r, '1.3.3').override!.created_at)).toBeGreaterThan(Date.now() - 60_000);
    // The scan still has contrast violations → stale.
    expect(row(r, '1.4.3').override).toMatchObject({ author: 'Grace Officer', stale: true });
    expect(row(r, '1.4.3').override!.stale_reason).toContain('color-contrast');
    expect(r.summary.stale_overrides).toBe(1);
    expect(r.overrides).toHaveLength(2);
    const html = await h.request('GET', `/api/v1/vpat/${r.id}?format=html`, { key });
    expect(html.text).toContain('Reviewed by Ada Reviewer');
    expect(html.text).toContain('(stale override)');
  });

  test('inherit_overrides_from carries overrides forward; new ones replace them; they go stale on new evidence', async () => {
    // A clean scan on main without contrast problems, then a regression.
    const clean = await scan({
      siteId: 'checkout',
      url: 'https://checkout.test/',
      branch: 'main',
      rules_run: ['color-contrast', 'image-alt', 'html-has-lang'],
      pages: [
        { url: 'https://checkout.test/', issues: [] },
        { url: 'https://checkout.test/pay', issues: [] },
      ],
    });
    const first = await generate<VpatReport>({
      siteId: 'checkout',
      scan_id: clean,
      overrides: [
        {
          criterion: '1.4.3',
          conformance: 'supports',
          remarks: 'Manually verified with a contrast analyser.',
          author: 'Ada',
        },
        {
          criterion: '2.4.7',
          conformance: 'supports',
          remarks: 'Focus ring on every control.',
          author: 'Ada',
        },
        {
          criterion: '1.4.6',
          conformance: 'partially-supports',
          remarks: 'AAA contrast on body text only.',
          author: 'Ada',
        },
      ],
      level: 'AAA',
    });
    expect(first.status).toBe(201);
    expect(row(first.body, '1.4.3').override!.stale).toBe(false);

    const regressed = await scan({
      siteId: 'checkout',
      url: 'https://checkout.test/',
      branch: 'main',
      rules_run: ['color-contrast'],
      pages: [
        {
          url: 'https://checkout.test/',
          issues: [{ rule: 'color-contrast', impact: 'serious', wcag: ['1.4.3'], selector: '.price' }],
        },
        { url: 'https://checkout.test/pay', issues: [] },
      ],
    });
    const second = await generate<VpatReport>({
      siteId: 'checkout',
      inherit_overrides_from: first.body.id,
      overrides: [
        {
          criterion: '2.4.7',
          conformance: 'partially-supports',
          remarks: 'The date picker hides focus.',
          author: 'Grace',
        },
      ],
    });
    expect(second.status).toBe(201);
    const r = second.body;
    // Default scan: the latest on the base branch.
    expect(r.scan_id).toBe(regressed);
    const carried = row(r, '1.4.3').override!;
    expect(carried).toMatchObject({
      author: 'Ada',
      created_at: row(first.body, '1.4.3').override!.created_at,
      inherited_from: first.body.id,
      stale: true,
    });
    expect(carried.stale_reason).toContain('1 violation on 1 of 2 pages');
    expect(row(r, '1.4.3').conformance).toBe('supports');
    expect(row(r, '2.4.7').override).toMatchObject({
      author: 'Grace',
      conformance: 'partially-supports',
      inherited_from: null,
    });
    // 1.4.6 is AAA: not a row of this AA report, so it is not carried, and the report says so.
    expect(find(r, '1.4.6')).toBeUndefined();
    expect(r.warnings.join(' ')).toContain('1.4.6');
    expect(r.overrides.map((o) => o.criterion).sort()).toEqual(['1.4.3', '2.4.7']);
    // The earlier report is unchanged (reports are immutable).
    const again = await h.request<VpatReport>('GET', `/api/v1/vpat/${first.body.id}`, { key });
    // The read also says what is newer than the report (the second report's scan): the rest is unchanged.
    const { behind, ...unchanged } = again.body as VpatReport & { behind?: { scans: number } };
    expect(unchanged).toEqual(first.body);
    expect(behind?.scans).toBe(1);
  });

  test("inherit_overrides_from another site's report is refused (422): a review of one site is no evidence for another", async () => {
    const shop = await generate<VpatReport>({
      siteId: 'shop',
      overrides: [
        { criterion: '1.3.3', conformance: 'supports', remarks: 'Checked on the shop.', author: 'Ada' },
      ],
    });
    expect(shop.status).toBe(201);
    await scan({
      siteId: 'blog',
      url: 'https://blog.test/',
      branch: 'main',
      pages: [{ url: 'https://blog.test/', issues: [] }],
    });
    const before = (await h.db('vpat_reports').count({ n: '*' }))[0].n;
    const res = await generate<Problem>({ siteId: 'blog', inherit_overrides_from: shop.body.id });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors!.map((e) => e.pointer)).toEqual(['#/inherit_overrides_from']);
    expect((await h.db('vpat_reports').count({ n: '*' }))[0].n).toBe(before);
  });

  test("the scan's own suspicions (login-page trap, HTTP errors) are repeated in the report", async () => {
    const pages = ['a', 'b', 'c', 'd'].map((p) => ({
      url: `https://trap.test/${p}`,
      final_url: `https://trap.test/login?next=/${p}`,
      http_status: p === 'd' ? 500 : 200,
      issues: [],
    }));
    const id = await scan({
      siteId: 'trap',
      url: 'https://trap.test/',
      branch: 'main',
      rules_run: ['html-has-lang'],
      pages,
    });
    const r = (await generate<VpatReport>({ siteId: 'trap', scan_id: id })).body;
    const text = r.warnings.join(' ');
    expect(text).toContain('ended at the same URL');
    expect(text).toContain('HTTP error status');
    // The evidence a person would confirm rests on those pages: its remark points at the warning.
    expect(row(r, '3.1.1').basis).toBe('rules-passed');
    expect(row(r, '3.1.1').remarks).toContain('the scan itself was flagged');
    const html = await h.request('GET', `/api/v1/vpat/${r.id}?format=html`, { key });
    expect(html.text).toContain('ended at the same URL');
  });

  test('rules_run decides between supports and not-evaluated on a native scan', async () => {
    const id = await scan({
      siteId: 'native',
      url: 'https://native.test/',
      branch: 'main',
      rules_run: ['image-alt', 'color-contrast'],
      pages: [
        {
          url: 'https://native.test/a',
          issues: [{ rule: 'image-alt', impact: 'critical', wcag: ['1.1.1'], selector: 'img' }],
        },
        {
          url: 'https://native.test/b',
          issues: [
            {
              rule: 'acme-focus-order',
              impact: 'serious',
              wcag: ['2.4.3'],
              selector: '#menu',
              help_url: 'https://acme.test/rules/focus-order',
            },
          ],
        },
        { url: 'https://native.test/c', issues: [] },
        {
          url: 'https://native.test/d',
          issues: [{ rule: 'html-has-lang', kind: 'incomplete', wcag: ['3.1.1'], selector: 'html' }],
        },
      ],
    });
    // The developers' links only when asked: a report is for customers.
    const r = (await generate<VpatReport>({ siteId: 'native', scan_id: id, developer_links: true })).body;
    const plain = (await generate<VpatReport>({ siteId: 'native', scan_id: id })).body;
    expect(plain.criteria.filter((c) => /How to fix|dequeuniversity/.test(c.remarks))).toEqual([]);
    expect(row(plain, '2.4.3').evidence.help_urls).toEqual(['https://acme.test/rules/focus-order']);
    expect(row(r, '1.1.1')).toMatchObject({ conformance: 'partially-supports' });
    expect(row(r, '1.4.3')).toMatchObject({ conformance: 'not-evaluated', basis: 'rules-passed' });
    expect(row(r, '2.4.2')).toMatchObject({ conformance: 'not-evaluated', basis: 'rules-not-run' });
    expect(row(r, '3.1.1')).toMatchObject({ conformance: 'not-evaluated', basis: 'incomplete' });
    // A rule axe-core does not know: the help link the scan stored.
    expect(row(r, '2.4.3')).toMatchObject({ conformance: 'partially-supports' });
    expect(row(r, '2.4.3').evidence.help_urls).toEqual(['https://acme.test/rules/focus-order']);
    expect(row(r, '2.4.3').remarks).toContain('How to fix: https://acme.test/rules/focus-order.');
    expect(row(r, '1.1.1').remarks).toContain('https://dequeuniversity.com/rules/axe/4.14/image-alt');
    expect(r.warnings).toEqual([]);
  });

  test("rules count as run only on the pages where they ran: a native page does not inherit an axe page's rules", async () => {
    const body = (extra: Record<string, unknown>) => ({
      siteId: 'mixed',
      url: 'https://mixed.test/',
      branch: 'main',
      pages: [
        { url: 'https://mixed.test/about', axe: fixture('clean') },
        { url: 'https://mixed.test/legacy', issues: [] },
      ],
      ...extra,
    });
    // The native page says nothing about which rules ran on it.
    const unlisted = await scan(body({}));
    const scanned = (await h.request<ScanDetail>('GET', `/api/v1/scans/${unlisted}`, { key })).body;
    expect(scanned.rules_run).toContain('color-contrast');
    const r = (await generate<VpatReport>({ siteId: 'mixed', scan_id: unlisted })).body;
    expect(row(r, '1.4.3')).toMatchObject({
      conformance: 'not-evaluated',
      basis: 'rules-not-run',
      needs_review: true,
    });
    expect(row(r, '1.4.3').remarks).toContain('ran on only 1 of 2 pages');
    expect(row(r, '1.4.3').remarks).toContain('(/legacy;');
    expect(row(r, '1.4.3').remarks).not.toContain('mixed.test');
    expect(row(r, '1.4.3').evidence.rules).toEqual(['color-contrast']);
    expect(r.warnings).toEqual([expect.stringContaining('1 of the 2 pages did not list the rules that ran')]);

    // The body's rules_run speaks for the native page: color-contrast now ran on both, document-title on one.
    const listed = await scan(body({ rules_run: ['color-contrast'] }));
    const both = (await generate<VpatReport>({ siteId: 'mixed', scan_id: listed })).body;
    expect(row(both, '1.4.3')).toMatchObject({ conformance: 'not-evaluated', basis: 'rules-passed' });
    expect(row(both, '1.4.3').remarks).toContain('ran on 2 of 2 pages');
    expect(row(both, '2.4.2')).toMatchObject({ conformance: 'not-evaluated', basis: 'rules-not-run' });
    expect(row(both, '2.4.2').remarks).toContain('document-title on 1 of 2');
    expect(both.warnings).toEqual([]);
  });

  test('waived violations still count against conformance, and the remarks say how many', async () => {
    const id = await scan({
      siteId: 'waived',
      url: 'https://waived.test/',
      branch: 'main',
      pages: [
        {
          url: 'https://waived.test/a',
          issues: [{ rule: 'image-alt', impact: 'critical', wcag: ['1.1.1'], selector: 'img.logo' }],
        },
        {
          url: 'https://waived.test/b',
          issues: [{ rule: 'image-alt', impact: 'critical', wcag: ['1.1.1'], selector: 'img.logo' }],
        },
      ],
    });
    const waiver = await h.request<Waiver>('POST', '/api/v1/waivers', {
      key,
      body: {
        siteId: 'waived',
        rule: 'image-alt',
        reason: 'Logo is replaced next sprint',
        expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
    });
    expect(waiver.status).toBe(201);
    const r = (await generate<VpatReport>({ siteId: 'waived', scan_id: id })).body;
    expect(row(r, '1.1.1')).toMatchObject({ conformance: 'does-not-support' });
    expect(row(r, '1.1.1').evidence).toMatchObject({ issues: 2, waived: 2 });
    expect(row(r, '1.1.1').remarks).toContain('2 issues of these are waived and still counted');
  });

  test('waivers by rule, by url_pattern, by selector and by fingerprint are each counted once; a revoked one is not', async () => {
    const img = (selector: string) => ({ rule: 'image-alt', impact: 'critical', wcag: ['1.1.1'], selector });
    const contrast = (selector: string) => ({
      rule: 'color-contrast',
      impact: 'serious',
      wcag: ['1.4.3'],
      selector,
    });
    const id = await scan({
      siteId: 'waivers-mix',
      url: 'https://mix.test/',
      branch: 'main',
      pages: [
        { url: 'https://mix.test/blog/1', issues: [img('img.a'), img('img.b'), contrast('p')] },
        {
          url: 'https://mix.test/shop',
          issues: [img('img.hero'), img('img.c'), contrast('h1'), contrast('h2')],
        },
        { url: 'https://mix.test/about', issues: [img('img.d'), img('div.css-1a2b3c > img'), contrast('a')] },
      ],
    });
    const full = await h.request<ScanDetail>('GET', `/api/v1/scans/${id}`, { key });
    const fp = full.body.issues.find((i) => i.selector === 'img.d')!.fingerprint;
    const waive = async (body: Record<string, unknown>) => {
      const res = await h.request<Waiver>('POST', '/api/v1/waivers', {
        key,
        body: {
          siteId: 'waivers-mix',
          reason: 'Known, tracked in JIRA-1',
          expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          ...body,
        },
      });
      expect(res.status).toBe(201);
      return res.body.id;
    };
    await waive({ rule: 'image-alt', url_pattern: '/blog/*' }); // 2 on /blog/1
    await waive({ rule: 'image-alt', selector: 'img.hero' }); // 1 on /shop
    await waive({ rule: 'image-alt', selector: 'img.a' }); // already waived by the url_pattern: not twice
    await waive({ rule: 'image-alt', fingerprint: fp }); // img.d on /about
    // Selectors compare normalised: another build's generated class name, other whitespace.
    await waive({ rule: 'image-alt', selector: 'div.css-9z8y7x>img', url_pattern: '/about' });
    await waive({ rule: 'image-alt', selector: 'div.css-9z8y7x>img', url_pattern: '/shop' }); // no such issue there
    await waive({ rule: 'color-contrast' }); // all 4
    const revoked = await waive({ rule: 'image-alt' });
    expect((await h.request('DELETE', `/api/v1/waivers/${revoked}`, { key })).status).toBeLessThan(300);
    const r = (await generate<VpatReport>({ siteId: 'waivers-mix', scan_id: id })).body;
    expect(row(r, '1.1.1').evidence).toMatchObject({ issues: 6, waived: 5, pages_affected: 3 });
    expect(row(r, '1.1.1').conformance).toBe('does-not-support');
    expect(row(r, '1.4.3').evidence).toMatchObject({ issues: 4, waived: 4 });
    expect(row(r, '1.4.3').conformance).toBe('does-not-support');
    // A scan fingerprinted by another version is matched issue by issue: the same counts.
    expect(await h.db('scans').where({ id }).update({ fingerprint_version: 0 })).toBe(1);
    const old = (await generate<VpatReport>({ siteId: 'waivers-mix', scan_id: id })).body;
    expect(row(old, '1.1.1').evidence).toMatchObject({ issues: 6, waived: 5 });
    expect(row(old, '1.4.3').evidence).toMatchObject({ issues: 4, waived: 4 });
  });

  test('people answering every criterion the scan cannot leave nothing undecided (publishing makes it final)', async () => {
    const id = await scan({
      siteId: 'final',
      url: 'https://final.test/',
      branch: 'main',
      rules_run: [],
      pages: [{ url: 'https://final.test/', issues: [] }],
    });
    const draft = (await generate<VpatReport>({ siteId: 'final', scan_id: id, level: 'A' })).body;
    expect(draft.status).toBe('draft');
    expect(draft.summary.undecided).toBeGreaterThan(0);
    const open = draft.criteria.filter((c) => c.conformance === 'not-evaluated');
    const final = await generate<VpatReport>({
      siteId: 'final',
      scan_id: id,
      level: 'A',
      overrides: open.map((c) => ({
        criterion: c.id,
        conformance: 'supports',
        remarks: 'Expert review, 2026-11.',
        author: 'Ada Reviewer',
      })),
    });
    expect(final.status).toBe(201);
    expect(final.body.status).toBe('draft');
    expect(final.body.summary.undecided).toBe(0);
    expect(final.body.summary.by_conformance['not-evaluated']).toBe(0);
  });

  test('org isolation: another org sees nothing', async () => {
    const mine = (await generate<VpatReport>({ siteId: 'shop' })).body.id;
    expect((await h.request('GET', `/api/v1/vpat/${mine}`, { key: otherKey })).status).toBe(404);
    expect((await h.request('GET', `/api/v1/vpat/${mine}?format=html`, { key: otherKey })).status).toBe(404);
    const bySite = await generate({ siteId: 'shop' }, otherKey);
    expect(bySite.status).toBe(404);
    expect((await generate({ siteId: 'shop', scan_id: axeScanId }, otherKey)).status).toBe(404);
    const otherScan = await scan(
      {
        siteId: 'shop',
        url: 'https://globex.test/',
        branch: 'main',
        pages: [{ url: 'https://globex.test/', issues: [] }],
      },
      otherKey,
    );
    const inherit = await generate<Problem>(
      { siteId: 'shop', scan_id: otherScan, inherit_overrides_from: mine },
      otherKey,
    );
    expect(inherit.status).toBe(404);
    expect(inherit.body.code).toBe('not_found');
  });

  test('404s: unknown report, unknown scan, no scan on the base branch', async () => {
    expect((await h.request('GET', '/api/v1/vpat/vpt_doesnotexist00000000', { key })).status).toBe(404);
    expect((await generate({ siteId: 'shop', scan_id: 'scn_doesnotexist0000000' })).status).toBe(404);
    expect(
      (await generate({ siteId: 'shop', inherit_overrides_from: 'vpt_doesnotexist00000000' })).status,
    ).toBe(404);
    await scan({
      siteId: 'feature-only',
      url: 'https://f.test/',
      branch: 'feature/x',
      pages: [{ url: 'https://f.test/', issues: [] }],
    });
    const none = await generate<Problem>({ siteId: 'feature-only' });
    expect(none.status).toBe(404);
    expect(none.body.detail).toContain('base branch "main"');
  });

  test('422s with pointers; nothing is stored', async () => {
    const before = (await h.db('vpat_reports').count({ n: '*' }))[0].n;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ siteId: 'shop', product: undefined }, '#/product'],
      [{ siteId: 'shop', edition: 'vpat' }, '#/edition'],
      [{ siteId: 'shop', wcag_version: '3.0' }, '#/wcag_version'],
      [{ siteId: 'shop', level: 'AAAA' }, '#/level'],
      [{ siteId: 'Not A Site' }, '#/siteId'],
      [
        { siteId: 'shop', overrides: [{ criterion: '1.4.3', conformance: 'supports' }] },
        '#/overrides/0/remarks',
      ],
      // Only a person grants a level: an override names who decided, never the key by default.
      [
        { siteId: 'shop', overrides: [{ criterion: '1.3.3', conformance: 'supports', remarks: 'x' }] },
        '#/overrides/0/author',
      ],
      [
        { siteId: 'shop', overrides: [{ criterion: '1.4.3', conformance: 'great', remarks: 'x' }] },
        '#/overrides/0/conformance',
      ],
      [
        {
          siteId: 'shop',
          overrides: [
            { criterion: '1.4.3', conformance: 'supports', remarks: 'x', author: 'Ada' },
            { criterion: '1.4.3', conformance: 'supports', remarks: 'y', author: 'Ada' },
          ],
        },
        '#/overrides/1/criterion',
      ],
      [
        {
          siteId: 'shop',
          overrides: [{ criterion: '9.9.9', conformance: 'supports', remarks: 'x', author: 'Ada' }],
        },
        '#/overrides/0/criterion',
      ],
      // 1.4.6 is AAA, 302.1 is Section 508: not rows of a WCAG AA report.
      [
        {
          siteId: 'shop',
          overrides: [{ criterion: '1.4.6', conformance: 'supports', remarks: 'x', author: 'Ada' }],
        },
        '#/overrides/0/criterion',
      ],
      [
        {
          siteId: 'shop',
          overrides: [{ criterion: '302.1', conformance: 'supports', remarks: 'x', author: 'Ada' }],
        },
        '#/overrides/0/criterion',
      ],
      [{ siteId: 'native', scan_id: axeScanId }, '#/scan_id'],
    ];
    for (const [body, pointer] of cases) {
      const res = await generate<Problem>(body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors!.map((e) => e.pointer)).toContain(pointer);
    }
    const bad = await h.request('GET', `/api/v1/vpat/vpt_x?format=docx`, { key });
    expect(bad.status).toBe(422);
    expect((await h.db('vpat_reports').count({ n: '*' }))[0].n).toBe(before);
  });

  test('scopes: generating needs manage, reading needs read; reports cannot be changed', async () => {
    const denied = await generate({ siteId: 'shop' }, readKey);
    expect(denied.status).toBe(403);
    const ingestOnly = await h.createKey({ org: 'acme', scopes: ['ingest'] });
    const id = (await generate<VpatReport>({ siteId: 'shop' })).body.id;
    expect((await h.request('GET', `/api/v1/vpat/${id}`, { key: ingestOnly })).status).toBe(403);
    expect((await h.request('DELETE', `/api/v1/vpat/${id}`, { key })).status).toBe(405);
    expect((await h.request('PATCH', `/api/v1/vpat/${id}`, { key, body: {} })).status).toBe(405);
  });
});
