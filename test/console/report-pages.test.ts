import type { VpatReport } from '../helpers/api-types.js';
import { dbKinds, startHarness, useHarness, type Harness } from '../helpers/harness.js';
import { ConsoleClient } from './client.js';
import { seedReport, type ReportSeed } from './report-seed.js';

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

  test('a decision is a new version made by the review service, and the page goes to it', async () => {
    const res = await c.post(`/reports/${s.reportId}/review`, {
      _csrf: ConsoleClient.csrfOf(page),
      criterion: s.left[0],
      n: '0',
      decision: 'does-not-support',
      remarks: 'The video has no captions.',
      author: 'Grace Officer',
    });
    expect(res.status).toBe(303);
    const next = /^\/reports\/(vpt_\w+)\?decided=/.exec(res.location ?? '')![1];
    const api = await h.request<VpatReport>('GET', `/api/v1/vpat/${next}`, { key: s.key });
    expect(api.body).toMatchObject({ previous_id: s.reportId, version: 3 });
    expect(api.body.criteria.find((r) => r.id === s.left[0])).toMatchObject({
      conformance: 'does-not-support',
      remarks: 'The video has no captions.',
      override: { author: 'Grace Officer', kind: 'level' },
    });
    const shown = await c.get(res.location!);
    expect(shown.text).toContain(`Decision on ${s.left[0]} recorded`);
    expect(shown.text).toContain('Waiting for a person (2)');
  });

  test('confirming needs evidence that allows it: otherwise the form comes back with the reason, nothing stored', async () => {
    const before = await reportCount(h);
    const res = await c.post(`/reports/${s.reportId}/review`, {
      _csrf: ConsoleClient.csrfOf(page),
      criterion: s.left[1],
      n: '1',
      decision: 'confirm',
      remarks: 'Looks fine.',
      author: 'Grace Officer',
    });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/<div class="error-summary" role="alert"/);
    expect(res.text).toContain(`${s.left[1]}: `);
    expect(await reportCount(h)).toBe(before);
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

  test('every download comes from the export service, PDF included', async () => {
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
      criterion: s.left[0],
      decision: 'supports',
      remarks: 'x',
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
      criterion: s.left[0],
      decision: 'supports',
      remarks: 'x',
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
      const large = await c.post(`/reports/${s.reportId}/review`, {
        _csrf: ConsoleClient.csrfOf(page),
        remarks: 'x'.repeat(70_000),
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
