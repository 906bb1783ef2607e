import type { Assessment, VpatReport } from '../helpers/api-types.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { renderDocument } from '../../core/text/html.js';
import { reviewSection } from '../../api/console/pages/vpat/report-review.js';
import type { Visitor } from '../../api/console/session.js';
import { ConsoleClient } from './client.js';
import { seedReport, type ReportSeed } from './report-seed.js';

// The report page follows the evidence (behind, the next version), people sign with their own names, and
// every download works with a console session.

/** The values the page's text fields start with, by field name. */
const fieldValues = (page: string) =>
  [...page.matchAll(/<input type="(?:text|url)"[^>]*>/g)].map((m) => ({
    name: /name="([^"]+)"/.exec(m[0])?.[1],
    value: /value="([^"]*)"/.exec(m[0])?.[1] ?? '',
  }));

describe.each(dbKinds)('the report lifecycle in the console (%s)', (db) => {
  const h = useHarness({ db });
  let s: ReportSeed;
  let c: ConsoleClient;
  let assessment = '';
  let report: VpatReport;

  beforeAll(async () => {
    s = await seedReport(h);
    c = new ConsoleClient(h.url);
    await c.signIn(s.key);
    const a = await h.request<Assessment>('POST', '/api/v1/assessments', {
      key: s.key,
      body: {
        siteId: 'docs-web',
        title: 'Docs audit',
        standard: { wcag: '2.2', level: 'AA' },
        sample: { pages: ['https://docs.example/'] },
      },
    });
    assessment = a.body.id;
    const gen = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key: s.key,
      body: {
        siteId: 'docs-web',
        product: { name: 'Docs', version: '3.2', vendor: 'Acme', description: 'The documentation site.' },
        inherit_overrides_from: s.reportId,
      },
    });
    report = gen.body;
  });

  test('a report behind its assessment says so, and one button makes the next version keeping every decision', async () => {
    const fresh = await c.get(`/reports/${report.id}`);
    expect(fresh.text).not.toContain('Behind the evidence');
    const put = await h.request('PUT', `/api/v1/assessments/${assessment}/results/1.3.3`, {
      key: s.key,
      body: { page: null, outcome: 'passed', notes: 'No instruction relies on shape.', tester: 'Ann Tester' },
    });
    expect(put.status).toBe(200);
    const page = (await c.get(`/reports/${report.id}`)).text;
    expect(page).toContain('Behind the evidence: 1 new result</h2>');
    expect(page).toContain(`href="/assessments/${assessment}"`);
    const res = await c.post(`/reports/${report.id}/refresh`, { _csrf: ConsoleClient.csrfOf(page) });
    expect(res.status).toBe(303);
    const next = /^\/reports\/(vpt_\w+)\?refreshed=1$/.exec(res.location ?? '')![1];
    const api = await h.request<VpatReport>('GET', `/api/v1/vpat/${next}`, { key: s.key });
    expect(api.body).toMatchObject({ previous_id: report.id, version: 2, behind: { results: 0, scans: 0 } });
    expect(api.body.overrides.map((o) => o.author)).toEqual(report.overrides.map((o) => o.author));
    const shown = (await c.get(res.location!)).text;
    expect(shown).toContain('This is the next version, made from the newest evidence');
    expect(shown).not.toContain('Behind the evidence');
    // The version it followed cannot be followed twice: nothing is made, and the page says so.
    const again = await c.post(`/reports/${report.id}/refresh`, { _csrf: ConsoleClient.csrfOf(page) });
    expect(again.location).toBe(`/reports/${report.id}?not_refreshed=1`);
    report = api.body;
  });

  test('no form starts with the key’s name: reviewer, publisher, tester and the Generate form', async () => {
    // A version with nothing left to decide, whose page has the publish form.
    const decided = await h.request<VpatReport>('POST', `/api/v1/vpat/${s.reportId}/review`, {
      key: s.key,
      body: {
        author: 'Grace Officer',
        decisions: s.left.map((criterion) => ({
          criterion,
          conformance: 'does-not-support',
          remarks: 'Not yet.',
        })),
      },
    });
    expect([decided.status, decided.body.summary.undecided]).toEqual([201, 0]);
    const pages = [
      (await c.get(`/reports/${s.firstId}`)).text,
      (await c.get(`/reports/${decided.body.id}`)).text,
      (await c.get('/sites/docs-web')).text,
      (await c.get(`/assessments/${assessment}`)).text,
    ];
    const fields = pages.flatMap(fieldValues);
    expect(fields.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'author',
        'publisher',
        'name',
        'version',
        'vendor',
        'contact',
        'url',
        'tester',
      ]) as string[],
    );
    expect(fields.filter((f) => f.value === 'Ada')).toEqual([]);
    // The people's names start empty: whoever decides, signs or tests types their own.
    const people = fields.filter((f) => ['author', 'publisher', 'tester'].includes(f.name ?? ''));
    expect(people.map((f) => f.value)).toEqual(people.map(() => ''));
  });

  test('a GitHub session signs with its login, read from the session', async () => {
    const api = await h.request<VpatReport>('GET', `/api/v1/vpat/${s.reportId}`, { key: s.key });
    const visitor = {
      user: {
        keyId: 'github:octo-reviewer',
        org: 'acme',
        name: 'octo-reviewer',
        scopes: ['read', 'manage'],
        tokenHash: 'x',
        expiresAt: '2099-01-01T00:00:00.000Z',
        sites: ['docs-web'],
        githubLogin: 'octo-reviewer',
      },
      csrf: 'token',
    } satisfies Visitor;
    const html = renderDocument(reviewSection(api.body, visitor));
    expect(fieldValues(html)).toEqual([{ name: 'author', value: 'octo-reviewer' }]);
    expect(html).toContain('Signed in with GitHub: your login is used.');
  });

  test('the Generate form asks for vendor, contact and public address, and refuses a wrong address by name', async () => {
    const site = (await c.get('/sites/docs-web')).text;
    const form = {
      _csrf: ConsoleClient.csrfOf(site),
      name: 'Docs',
      version: '4.0',
      description: 'The documentation site.',
      vendor: 'Acme Corp',
      contact: 'a11y@acme.example',
      url: 'https://docs.acme.example/',
    };
    const made = await c.post('/sites/docs-web/reports', form);
    expect(made.status).toBe(303);
    const id = /^\/reports\/(vpt_\w+)$/.exec(made.location ?? '')![1];
    const api = await h.request<VpatReport>('GET', `/api/v1/vpat/${id}`, { key: s.key });
    expect(api.body.product).toEqual({
      name: 'Docs',
      version: '4.0',
      description: 'The documentation site.',
      vendor: 'Acme Corp',
      contact: { email: 'a11y@acme.example' },
      url: 'https://docs.acme.example/',
    });
    // The form grants no level and names no decider: people decide the rows on the report's page.
    expect(site).toContain('Nothing here grants a level');
    expect(api.body.overrides).toEqual([]);
    const pdf = await c.get(`/reports/${id}/download/md`);
    expect(pdf.text).toContain('Acme Corp');
    const before = Number((await h.db('vpat_reports').count({ n: '*' }).first())?.n);
    const wrong = await c.post('/sites/docs-web/reports', { ...form, url: 'ftp://docs.acme.example/' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Error: Public address: give an absolute http(s) address.');
    expect(Number((await h.db('vpat_reports').count({ n: '*' }).first())?.n)).toBe(before);
    // The lists name product, version, status and date, so two reports never read alike.
    const page = (await c.get(`/reports/${id}`)).text;
    expect(page).toMatch(
      /<option value="vpt_\w+">Docs 3\.2, version 2 \(draft\), \d{4}-\d\d-\d\d \d\d:\d\d UTC<\/option>/,
    );
    expect(page).toMatch(/<option value="vpt_\w+">Docs 3\.1, version 2 \(draft\), /);
  });

  test('every download link of the report works with a console session; another org’s report is 404', async () => {
    const page = (await c.get(`/reports/${report.id}`)).text;
    const links = [...page.matchAll(/href="(\/reports\/vpt_\w+\/download\/(\w+))"/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(links.map(([, f]) => f)).toEqual(['html', 'md', 'openacr', 'pdf', 'earl']);
    const types: Record<string, string> = {
      html: 'text/html',
      md: 'text/markdown',
      openacr: 'application/yaml',
      pdf: 'application/pdf',
      earl: 'application/ld+json',
    };
    for (const [href, format] of links) {
      const res = await c.get(href);
      expect([format, res.status, res.headers.get('content-type')?.split(';')[0]]).toEqual([
        format,
        200,
        types[format],
      ]);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    }
    const earl = JSON.parse((await c.get(`/reports/${report.id}/download/earl`)).text) as {
      auditSample: unknown[];
    };
    expect(earl.auditSample.length).toBe(55);
    const workspace = (await c.get(`/assessments/${assessment}`)).text;
    expect(workspace).toContain(`href="/assessments/${assessment}/download/earl"`);
    expect((await c.get(`/assessments/${assessment}/download/earl`)).status).toBe(200);
    // Another organisation's session: the same 404 as an id that does not exist.
    const other = await seedReport(h, 'globex');
    const stranger = new ConsoleClient(h.url);
    await stranger.signIn(other.key);
    for (const [href] of links) expect([href, (await stranger.get(href)).status]).toEqual([href, 404]);
    expect((await stranger.get(`/assessments/${assessment}/download/earl`)).status).toBe(404);
    // A report without an assessment has no EARL.
    expect((await c.get(`/reports/${s.firstId}/download/earl`)).status).toBe(404);
  });
});
