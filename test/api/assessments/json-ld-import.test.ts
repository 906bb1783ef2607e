import fs from 'node:fs';
import jsonld from 'jsonld';
import type { AssessmentDetail, Problem } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { SITE, seedScan } from './seed.js';

// Imports read JSON-LD as JSON-LD: the WCAG-EM Report Tool's `@graph` export (its 2.x releases), its
// earlier format, and another tool's EARL map by meaning, whatever their framing, context or key order;
// nothing is loaded from the network.

const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(`test/fixtures/assessments/${name}`, 'utf8')) as Record<string, unknown>;

/** Every result of the `@graph` fixture that has an outcome a person decided, in WCAG's order. */
const GRAPH_RESULTS = [
  ['1.1.1', null, 'failed', 'The map and the ticket icon have no text alternative.'],
  ['1.1.1', 'https://museum.example/', 'passed', 'Every image has a fitting alternative.'],
  ['1.1.1', 'https://museum.example/collection/42', 'inapplicable', 'No images.'],
  ['1.1.1', 'https://museum.example/visit', 'failed', 'The map of the rooms has no alternative.'],
  ['1.3.1', null, 'passed', 'Headings, lists and tables are marked up.'],
  ['1.4.3', null, 'cantTell', 'Text over the hero photograph needs a closer look.'],
  ['2.4.2', null, 'passed', 'Every page has a title naming it.'],
  ['2.4.7', 'https://museum.example/', 'passed', 'The focus ring shows on every control.'],
];

const byPlace = (
  a: { criterion: string; page: string | null },
  b: { criterion: string; page: string | null },
) =>
  a.criterion.localeCompare(b.criterion, 'en', { numeric: true }) ||
  (a.page ?? '').localeCompare(b.page ?? '');

describe.each(dbKinds)('JSON-LD imports (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  const post = (body: unknown) =>
    h.request<AssessmentDetail>('POST', `/api/v1/assessments/import?siteId=${SITE}`, {
      key: h.key,
      raw: JSON.stringify(body),
      headers: { 'content-type': 'application/ld+json' },
    });
  const refuse = (body: unknown) =>
    h.request<Problem>('POST', `/api/v1/assessments/import?siteId=${SITE}`, {
      key: h.key,
      raw: JSON.stringify(body),
      headers: { 'content-type': 'application/ld+json' },
    });
  const count = async () => Number((await h.db('assessments').count({ n: '*' }).first())?.n);
  const rows = (d: AssessmentDetail) =>
    [...d.results].sort(byPlace).map((r) => [r.criterion, r.page, r.outcome, r.notes]);

  beforeAll(async () => {
    await seedScan(h, h.key);
  });

  test('the Report Tool’s @graph export: its sample, its evaluator and every decided result', async () => {
    const res = await post(fixture('wcag-em-graph.json'));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      origin: 'wcag-em-report-tool',
      title: 'City Museum accessibility evaluation',
    });
    expect(res.body.standard).toEqual({ wcag: '2.2', level: 'AA' });
    expect(res.body.sample.pages).toEqual([
      { url: 'https://museum.example/', source: 'chosen' },
      { url: 'https://museum.example/visit', source: 'chosen' },
      { url: 'https://museum.example/collection/42', source: 'random' },
    ]);
    expect(rows(res.body)).toEqual(GRAPH_RESULTS);
    expect(new Set(res.body.results.map((r) => r.tester))).toEqual(new Set(['Mara Evaluator']));
    expect(res.body.notes).toEqual(
      expect.arrayContaining([
        '4.1.1 Parsing is obsolete in WCAG 2.2 and counts for nothing',
        '1.4.6 is above Level AA',
      ]) as string[],
    );
  });

  test('the same evaluation flattened, under another context and in another key order, reads the same', async () => {
    const flat = await jsonld.flatten(fixture('wcag-em-graph.json'), {
      e: 'http://www.w3.org/ns/earl#',
      m: 'http://www.w3.org/TR/WCAG-EM/#',
      d: 'http://purl.org/dc/terms/',
    });
    const reversed = JSON.parse(
      JSON.stringify(flat, (_k, v: unknown) =>
        v && typeof v === 'object' && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v as Record<string, unknown>).reverse())
          : v,
      ),
    ) as unknown;
    const res = await post(reversed);
    expect(res.status).toBe(201);
    expect(rows(res.body)).toEqual(GRAPH_RESULTS);
    expect(res.body.sample.pages.map((p) => p.url).sort()).toEqual([
      'https://museum.example/',
      'https://museum.example/collection/42',
      'https://museum.example/visit',
    ]);
  });

  test('the earlier export imports as before', async () => {
    const res = await post(fixture('wcag-em-earlier.json'));
    expect(res.status).toBe(201);
    expect(rows(res.body).map(([c, p, o]) => [c, p, o])).toEqual([
      ['1.1.1', null, 'cantTell'],
      ['1.1.1', 'https://library.example/', 'passed'],
      ['1.1.1', 'https://library.example/book/42', 'inapplicable'],
      ['1.1.1', 'https://library.example/search', 'failed'],
      ['2.1.1', null, 'untested'],
      ['2.4.2', null, 'passed'],
    ]);
    expect(res.body.results.every((r) => r.tester === 'Dana Auditor')).toBe(true);
  });

  test('another tool’s EARL under the ACT rules context (shipped, not fetched): assertions under their subject', async () => {
    const res = await post({
      '@context': 'https://act-rules.github.io/earl-context.json',
      '@graph': [
        { '@id': '_:checker', '@type': 'Assertor', name: 'Example Checker' },
        {
          '@type': ['TestSubject', 'WebPage'],
          source: 'https://gallery.example/',
          assertions: [
            {
              '@type': 'Assertion',
              assertedBy: '_:checker',
              test: { title: 'image-alt', isPartOf: ['WCAG2:non-text-content'] },
              result: { '@type': 'TestResult', outcome: 'earl:failed', description: 'One image has no alt.' },
            },
            {
              '@type': 'Assertion',
              assertedBy: '_:checker',
              test: { title: 'svg-img-alt', isPartOf: ['WCAG2:non-text-content'] },
              result: { '@type': 'TestResult', outcome: 'earl:passed' },
            },
            {
              '@type': 'Assertion',
              assertedBy: '_:checker',
              test: { title: 'color-contrast', isPartOf: ['WCAG2:contrast-minimum'] },
              result: { '@type': 'TestResult', outcome: 'earl:passed' },
            },
          ],
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.origin).toBe('earl');
    expect(res.body.sample.pages).toEqual([{ url: 'https://gallery.example/', source: 'chosen' }]);
    expect(rows(res.body)).toEqual([
      ['1.1.1', 'https://gallery.example/', 'failed', 'One image has no alt.'],
      ['1.4.3', 'https://gallery.example/', 'passed', ''],
    ]);
    expect(res.body.results.every((r) => r.tester === 'Example Checker')).toBe(true);
  });

  test('refusals are 422s a person can read, and store nothing', async () => {
    const before = await count();
    const remote = await refuse({
      '@context': 'https://contexts.example/evil.jsonld',
      auditSample: [{ test: 'WCAG22:non-text-content', result: { outcome: 'earl:passed' } }],
    });
    expect([remote.status, remote.body.errors?.[0].pointer]).toEqual([422, '#/@context']);
    expect(remote.body.errors?.[0].detail).toMatch(
      /^names the remote context "https:\/\/contexts\.example\/evil\.jsonld", which this service does not load/,
    );
    const imported = await refuse({
      '@context': { '@import': 'https://contexts.example/more.jsonld' },
      auditSample: [],
    });
    expect([imported.status, imported.body.errors?.[0].pointer]).toEqual([422, '#/@context']);
    const invalid = await refuse({ '@context': { title: { '@id': 5 } }, auditSample: [] });
    expect([invalid.status, invalid.body.errors?.[0].detail]).toEqual([
      422,
      expect.stringMatching(/^is not valid JSON-LD: /) as string,
    ]);
    const empty = await refuse({
      '@context': {},
      auditSample: [
        { test: 'WCAG22:non-text-content', subject: '_:website', result: { outcome: 'earl:untested' } },
      ],
    });
    expect([empty.status, empty.body.detail]).toEqual([422, 'The file holds no result to import.']);
    const graphPages = fixture('wcag-em-graph.json') as { '@graph': Array<Record<string, unknown>> };
    graphPages['@graph'][0].structuredSample = {
      webpage: Array.from({ length: 501 }, (_, i) => ({
        id: `_:p${i}`,
        source: `https://museum.example/${i}`,
      })),
    };
    const bomb = await refuse({
      '@context': Object.fromEntries(
        Array.from({ length: 1001 }, (_, i) => [`t${i}`, `http://x.example/${i}`]),
      ),
      auditSample: [],
    });
    expect([bomb.status, bomb.body.limit, bomb.body.limit_value]).toEqual([
      422,
      'json_ld_terms_per_import',
      1000,
    ]);
    const tooMany = await refuse(graphPages);
    expect([tooMany.status, tooMany.body.limit]).toEqual([422, 'pages_per_assessment']);
    expect(await count()).toBe(before);
  });
});
