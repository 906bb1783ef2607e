import type { VpatReport } from '../helpers/api-types.js';
import { dbKinds, startHarness, useHarness, type Harness } from '../helpers/harness.js';
import { ConsoleClient } from './client.js';
import { REVIEW_FORM_FIELDS } from '../../api/console/pages/vpat/report-review-form.js';
import { seedReport, type ReportSeed } from './report-seed.js';

interface FormRow {
  n: number;
  criterion: string;
}

/** The rows of the page's review form, as the browser would send them (number and criterion). */
const rowsOf = (page: string): FormRow[] =>
  [...page.matchAll(/name="criterion-(\d+)" value="([^"]+)"/g)].map((m) => ({
    n: Number(m[1]),
    criterion: m[2],
  }));

const rowFields = (r: FormRow, decision: string, remarks: string): Record<string, string> => ({
  [`criterion-${r.n}`]: r.criterion,
  [`decision-${r.n}`]: decision,
  [`remarks-${r.n}`]: remarks,
});

const reportCount = async (h: Harness) => Number((await h.db('vpat_reports').count({ n: '*' }))[0].n);

describe.each(dbKinds)('the report page’s forms over HTTP (%s)', (db) => {
  const h = useHarness({ db });
  let s: ReportSeed;
  let c: ConsoleClient;
  let page: string;
  // A report of its own for each test: versions form one line, so a test's decision would otherwise be
  // the newer version that refuses the next test's.
  beforeEach(async () => {
    s = await seedReport(h);
    c = new ConsoleClient(h.url);
    await c.signIn(s.key);
    page = (await c.get(`/reports/${s.reportId}`)).text;
  });

  test('one submission records every decided row as one new version; rows left for later stay waiting', async () => {
    const before = await reportCount(h);
    const rows = rowsOf(page);
    expect(rows.map((r) => r.criterion).sort()).toEqual([...s.left].sort());
    const [first, second, later] = rows;
    const res = await c.post(`/reports/${s.reportId}/review`, {
      _csrf: ConsoleClient.csrfOf(page),
      ...rowFields(first, 'does-not-support', 'The video has no captions.'),
      ...rowFields(second, 'not-applicable', 'The site has no forms.'),
      ...rowFields(later, '', ''),
      author: 'Grace Officer',
    });
    expect(res.status).toBe(303);
    expect(await reportCount(h)).toBe(before + 1);
    const next = /^\/reports\/(vpt_\w+)\?decided=2#queue$/.exec(res.location ?? '')![1];
    const api = await h.request<VpatReport>('GET', `/api/v1/vpat/${next}`, { key: s.key });
    expect(api.body).toMatchObject({ previous_id: s.reportId, version: 3 });
    expect(api.body.criteria.find((r) => r.id === first.criterion)).toMatchObject({
      conformance: 'does-not-support',
      remarks: 'The video has no captions.',
      override: { author: 'Grace Officer', kind: 'level' },
    });
    expect(api.body.criteria.find((r) => r.id === second.criterion)).toMatchObject({
      conformance: 'not-applicable',
      override: { author: 'Grace Officer', kind: 'level' },
    });
    expect(api.body.criteria.find((r) => r.id === later.criterion)).toMatchObject({ needs_review: true });
    const shown = await c.get(res.location!);
    expect(shown.text).toContain('2 decisions recorded: this is the new version.');
    expect(shown.text).toContain('Waiting for a person (1)');
  });

  test('one refused row refuses the whole submission: the form comes back with the reason, nothing stored', async () => {
    const before = await reportCount(h);
    const [notConfirmable, first] = rowsOf(page).filter((r) => r.criterion !== s.confirmable);
    const res = await c.post(`/reports/${s.reportId}/review`, {
      _csrf: ConsoleClient.csrfOf(page),
      ...rowFields(first, 'supports', 'Checked with a screen reader.'),
      ...rowFields(notConfirmable, 'confirm', 'Looks fine.'),
      author: 'Grace Officer',
    });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/<div class="error-summary" role="alert"/);
    expect(res.text).toContain(`href="#decision-${notConfirmable.n}">${notConfirmable.criterion}: `);
    // What was typed is shown again, so nothing has to be typed twice.
    expect(res.text).toContain('Checked with a screen reader.</textarea>');
    expect(await reportCount(h)).toBe(before);
  });

  test('a decision without remarks, remarks without a decision, or nothing decided: 422, nothing stored', async () => {
    const before = await reportCount(h);
    const [first, second, third] = rowsOf(page);
    const csrf = ConsoleClient.csrfOf(page);
    const cases: Array<[Record<string, string>, string]> = [
      [
        { ...rowFields(first, 'supports', 'Fine.'), ...rowFields(second, 'supports', '') },
        `${second.criterion}: write the remarks shown in the report.`,
      ],
      [
        { ...rowFields(first, 'supports', 'Fine.'), ...rowFields(third, '', 'Half done.') },
        `${third.criterion}: choose a decision for these remarks, or clear them.`,
      ],
      [
        { ...rowFields(first, '', ''), ...rowFields(second, '', '') },
        'Choose a decision on at least one row.',
      ],
      [{ ...rowFields(first, 'excellent', 'Fine.') }, `${first.criterion}: choose a decision.`],
    ];
    for (const [fields, message] of cases) {
      const res = await c.post(`/reports/${s.reportId}/review`, {
        _csrf: csrf,
        ...fields,
        author: 'Grace Officer',
      });
      expect([res.status, res.text.includes(message)]).toEqual([422, true]);
    }
    expect(await reportCount(h)).toBe(before);
  });

  test('every waiting row of a fresh report decided in one submission, past the console’s usual 50 fields', async () => {
    const gen = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key: s.key,
      body: { siteId: 'docs-web', product: { name: 'Docs', version: '3.2', description: 'The docs.' } },
    });
    const fresh = (await c.get(`/reports/${gen.body.id}`)).text;
    const rows = rowsOf(fresh);
    expect(rows.length).toBe(gen.body.summary.undecided);
    expect(3 * rows.length + 2).toBeGreaterThan(50);
    const before = await reportCount(h);
    const res = await c.post(`/reports/${gen.body.id}/review`, {
      _csrf: ConsoleClient.csrfOf(fresh),
      ...Object.fromEntries(
        rows.flatMap((r) => Object.entries(rowFields(r, 'partially-supports', `Checked ${r.criterion}.`))),
      ),
      author: 'Grace Officer',
    });
    expect(res.status).toBe(303);
    expect(await reportCount(h)).toBe(before + 1);
    const next = /vpt_\w+/.exec(res.location!)![0];
    const api = await h.request<VpatReport>('GET', `/api/v1/vpat/${next}`, { key: s.key });
    expect(api.body).toMatchObject({ version: 2, previous_id: gen.body.id, summary: { undecided: 0 } });
    // Past the form's own bound the form is not read at all.
    const over: Record<string, string> = { _csrf: ConsoleClient.csrfOf(fresh), author: 'x' };
    for (let i = 0; i < REVIEW_FORM_FIELDS; i++) over[`remarks-${i}`] = 'x';
    const refused = await c.post(`/reports/${gen.body.id}/review`, over);
    expect(refused.status).toBe(413);
    expect(refused.text).toContain('<h1>This form could not be read</h1>');
    expect(await reportCount(h)).toBe(before + 1);
  });

  test('publishing is refused while rows wait, and publishes once none is left', async () => {
    const refused = await c.post(`/reports/${s.reportId}/publish`, {
      _csrf: ConsoleClient.csrfOf(page),
      publisher: 'Grace Officer',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('still needs a person');
    const done = await h.request<VpatReport>('POST', `/api/v1/vpat/${s.reportId}/review`, {
      key: s.key,
      body: {
        author: 'Grace Officer',
        decisions: s.left.map((criterion) => ({ criterion, conformance: 'supports', remarks: 'Checked.' })),
      },
    });
    const ready = await c.get(`/reports/${done.body.id}`);
    expect(ready.text).toContain('Waiting for a person (0)');
    const res = await c.post(`/reports/${done.body.id}/publish`, {
      _csrf: ConsoleClient.csrfOf(ready.text),
      publisher: 'Grace Officer',
    });
    expect(res.location).toMatch(/^\/reports\/vpt_\w+\?published=1$/);
    const final = await c.get(res.location!);
    expect(final.text).toContain('Published by Grace Officer');
    expect(final.text).not.toMatch(/action="\/reports\/[^"]+\/(review|publish)"/);
    const finalId = /vpt_\w+/.exec(res.location!)![0];
    const again = await c.post(`/reports/${finalId}/publish`, {
      _csrf: ConsoleClient.csrfOf(ready.text),
      publisher: 'Grace Officer',
    });
    expect(again.status).toBe(422);
    expect(again.text).toContain('already final');
  });

  test('every download comes from the export service, PDF included, the suggestion in the draft', async () => {
    for (const [format, type] of [
      ['html', 'text/html'],
      ['md', 'text/markdown'],
      ['openacr', 'application/yaml'],
      ['pdf', 'application/pdf'],
    ]) {
      const res = await fetch(`${h.url}/reports/${s.reportId}/download/${format}`, {
        headers: { cookie: `a11y_session=${c.cookie('a11y_session')}` },
      });
      expect([format, res.status, res.headers.get('content-type')?.split(';')[0]]).toEqual([
        format,
        200,
        type,
      ]);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="vpt_\w+\.\w+"$/);
      // The draft's suggested row (its rule had nothing to test) says so in the text formats' remarks.
      if (format !== 'pdf') {
        expect([format, (await res.text()).replace(/\s+/g, ' ')]).toEqual([
          format,
          expect.stringContaining('Suggested: Not Applicable.'),
        ]);
      }
    }
    expect((await c.get(`/reports/${s.reportId}/download/docx`)).status).toBe(404);
  });

  test('the changes page compares with the version before by default', async () => {
    const res = await c.get(`/reports/${s.reportId}/changes`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Changes to version 2 since version 1');
    expect(res.text).toContain(
      '<caption>Reviewers’ decisions added, dropped, changed or made stale</caption>',
    );
  });

  test('a read-only key reads the report but gets no forms, and its posts are a 403 page', async () => {
    const reader = new ConsoleClient(h.url);
    await reader.signIn(s.readOnlyKey);
    const seen = await reader.get(`/reports/${s.reportId}`);
    expect(seen.status).toBe(200);
    expect(seen.text).toContain('Deciding rows and publishing need a key with the “manage” scope.');
    expect(seen.text).not.toContain('/review"');
    const before = await reportCount(h);
    const res = await reader.post(`/reports/${s.reportId}/review`, {
      _csrf: ConsoleClient.csrfOf(seen.text),
      ...rowFields(rowsOf(page)[0], 'supports', 'x'),
      author: 'x',
    });
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/^<!doctype html><html lang="en">/);
    expect(res.text).toContain('<h1>Not allowed</h1>');
    expect(await reportCount(h)).toBe(before);
  });

  test('without its CSRF token a decision is refused with a 403 page and nothing changes', async () => {
    const before = await reportCount(h);
    const res = await c.post(`/reports/${s.reportId}/review`, {
      ...rowFields(rowsOf(page)[0], 'supports', 'x'),
      author: 'x',
    });
    expect(res.status).toBe(403);
    expect(res.text).toContain('<h1>Not allowed</h1>');
    expect(await reportCount(h)).toBe(before);
  });

  test('another org’s report and a missing one are the same 404 page, on every report address', async () => {
    const other = await seedReport(h, 'globex');
    for (const id of [other.reportId, 'vpt_doesnotexist']) {
      for (const res of [
        await c.get(`/reports/${id}`),
        await c.get(`/reports/${id}/changes`),
        await c.get(`/reports/${id}/download/pdf`),
        await c.get(`/reports/${s.reportId}/changes?against=${id}`),
        await c.post(`/reports/${id}/publish`, { _csrf: ConsoleClient.csrfOf(page), publisher: 'x' }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.text).toContain('<h1>Not found</h1>');
        expect(res.text).not.toContain(other.reportId);
      }
    }
  });
});

describe.each(dbKinds)('console errors are pages (%s)', (db) => {
  test('a form too large is a 413 page and a failing server a 500 page, both in the layout', async () => {
    const h = await startHarness({ db });
    try {
      const s = await seedReport(h);
      const c = new ConsoleClient(h.url);
      await c.signIn(s.key);
      const page = (await c.get(`/reports/${s.reportId}`)).text;
      const large = await c.post(`/reports/${s.reportId}/publish`, {
        _csrf: ConsoleClient.csrfOf(page),
        publisher: 'x'.repeat(70_000),
      });
      expect(large.status).toBe(413);
      expect(large.text).toContain('<h1>This form could not be read</h1>');
      // The reports' table gone: the page cannot be answered, and says so as a page, not as JSON.
      await h.db.schema.renameTable('vpat_reports', 'vpat_reports_gone');
      const res = await c.get(`/reports/${s.reportId}`);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<h1>Something went wrong</h1>');
      expect(res.text).toContain('<a class="skip-link" href="#main">');
      expect(res.text).not.toMatch(/vpat_reports|SQLITE|relation/i);
      await h.db.schema.renameTable('vpat_reports_gone', 'vpat_reports');
    } finally {
      await h.close();
    }
  });
});
