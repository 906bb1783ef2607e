import type { Statement } from '../helpers/api-types.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { eventPayloads } from '../helpers/outbox.js';
import { COMPLETE_ANSWERS, seedStatementSite, type StatementSeed } from '../helpers/statement-seed.js';
import { ConsoleClient } from './client.js';

const DAY_MS = 86_400_000;

/** The statement's row as stored, to show a refused form changed nothing. */
const stored = (h: ReturnType<typeof useHarness>, id: string) =>
  h.db('statements').where({ id }).first<{ statement: string; status: string }>('statement', 'status');

describe.each(dbKinds)('the statement pages over HTTP (%s)', (db) => {
  const h = useHarness({ db });
  let s: StatementSeed;
  let c: ConsoleClient;
  let id: string;

  beforeAll(async () => {
    s = await seedStatementSite(h);
    c = new ConsoleClient(h.url);
    await c.signIn(s.key);
  });

  test('the site page makes a draft from a published report; the draft asks what no evidence gives', async () => {
    const site = await c.get(`/sites/${s.siteId}`);
    expect(site.text).toContain('No accessibility statement of this site yet.');
    // Only published reports are offered: the draft generated after the final one is not.
    expect(site.text).toContain(`<option value="${s.reportId}">`);
    expect(site.text).not.toContain(`<option value="${s.draftReportId}">`);
    const made = await c.post(`/sites/${s.siteId}/statements`, {
      _csrf: ConsoleClient.csrfOf(site.text),
      report_id: s.reportId,
    });
    expect(made.status).toBe(303);
    id = /^\/statements\/(stm_\w+)$/.exec(made.location ?? '')![1];
    const page = await c.get(`/statements/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Acme Shop is partially compliant with EN 301 549');
    expect(page.text).toContain(
      '<a href="#answer-entity">Which organisation is responsible for the service?</a>',
    );
    expect(page.text).toContain('Publishing needs every answer above.');
    expect(page.text).not.toContain('action="/statements/' + id + '/publish"');

    // One draft at a time: a second one is refused with a page saying why.
    const again = await c.post(`/sites/${s.siteId}/statements`, { _csrf: ConsoleClient.csrfOf(site.text) });
    expect(again.status).toBe(409);
    expect(again.text).toContain('is still a draft');
  });

  test('answers: without the CSRF token or with a bad address nothing is stored; saved ones complete the draft', async () => {
    const before = await stored(h, id);
    const page = await c.get(`/statements/${id}`);
    const form = { ...COMPLETE_ANSWERS, method: 'self-assessment', contact_phone: '', contact_url: '' };
    expect((await c.post(`/statements/${id}/answers`, form)).status).toBe(403);
    const refused = await c.post(`/statements/${id}/answers`, {
      ...form,
      contact_email: 'not an address',
      _csrf: ConsoleClient.csrfOf(page.text),
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(
      '<a href="#answer-contact_email">Contact e-mail address: Enter an e-mail address, like accessibility@example.com.</a>',
    );
    // What was typed comes back as it was.
    expect(refused.text).toContain('value="not an address"');
    expect(await stored(h, id)).toEqual(before);

    const saved = await c.post(`/statements/${id}/answers`, {
      ...form,
      _csrf: ConsoleClient.csrfOf(page.text),
    });
    expect([saved.status, saved.location]).toEqual([303, `/statements/${id}?saved=1#answers`]);
    const after = await c.get(`/statements/${id}?saved=1`);
    expect(after.text).toContain('The answers are saved.');
    expect(after.text).toContain(`action="/statements/${id}/publish"`);
  });

  test('publishing records the name the person types, and the final version has no forms', async () => {
    const page = await c.get(`/statements/${id}`);
    const csrf = ConsoleClient.csrfOf(page.text);
    const unnamed = await c.post(`/statements/${id}/publish`, { _csrf: csrf, publisher: '  ' });
    expect(unnamed.status).toBe(422);
    expect(unnamed.text).toContain('Type your name: it is recorded as the publisher.');
    expect((await stored(h, id))?.status).toBe('draft');

    const published = await c.post(`/statements/${id}/publish`, { _csrf: csrf, publisher: 'Grace Officer' });
    expect([published.status, published.location]).toEqual([303, `/statements/${id}?published=1`]);
    const final = await c.get(`/statements/${id}?published=1`);
    expect(final.text).toContain('Published: this version is final.');
    expect(final.text).toMatch(/Published by Grace Officer on \d{4}-\d{2}-\d{2}\./);
    expect(final.text).not.toMatch(/<form method="post" action="\/statements\//);
    const events = await eventPayloads(h.db, 'statement.published', 'acme');
    expect(events.map((e) => e.data.published?.by)).toEqual(['Grace Officer']);
    // A final version refuses its forms, with a page that says nothing was changed.
    const late = await c.post(`/statements/${id}/answers`, { _csrf: csrf, entity: 'Someone else' });
    expect(late.status).toBe(409);
    expect(late.text).toContain('Nothing was changed');
  });

  test('the review notice shows on the site and statement pages when the yearly review is near', async () => {
    const soon = new Date(Date.now() + 10 * DAY_MS).toISOString().slice(0, 10);
    const next = await h.request<Statement>('POST', '/api/v1/statements', {
      key: s.key,
      body: { siteId: s.siteId, answers: { next_review_on: soon } },
    });
    expect(next.status).toBe(201);
    expect((await c.get(`/sites/${s.siteId}`)).text).not.toContain('Review due:');
    await h.request('POST', `/api/v1/statements/${next.body.id}/publish`, {
      key: s.key,
      body: { publisher: 'Grace Officer' },
    });
    const notice = `the yearly review of the accessibility statement (version 2) is due by ${soon} (in 10 days)`;
    const squash = (t: string) => t.replace(/\s+/g, ' ');
    expect(squash((await c.get(`/sites/${s.siteId}`)).text)).toContain(notice);
    expect(squash((await c.get(`/statements/${next.body.id}`)).text)).toContain(notice);
    // Version 1 was replaced: its page has no notice.
    expect((await c.get(`/statements/${id}`)).text).not.toContain('Review due:');
  });

  test('downloads in every format; a reader gets no forms; another organisation gets the 404 page', async () => {
    for (const [format, type, name] of [
      ['html', 'text/html; charset=utf-8', `${id}.html`],
      ['md', 'text/markdown; charset=utf-8', `${id}.md`],
      ['json', 'application/json; charset=utf-8', `${id}.json`],
      ['eaa', 'text/html; charset=utf-8', `${id}.eaa.html`],
    ]) {
      const res = await c.get(`/statements/${id}/download/${format}`);
      expect([res.status, res.headers.get('content-type')]).toEqual([200, type]);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    }
    const reader = new ConsoleClient(h.url);
    await reader.signIn(s.readOnlyKey);
    const readerPage = await reader.get(`/statements/${id}`);
    expect(readerPage.status).toBe(200);
    expect(readerPage.text).not.toContain('<form method="post" action="/statements/');
    expect((await reader.get(`/sites/${s.siteId}`)).text).not.toContain(
      `action="/sites/${s.siteId}/statements"`,
    );
    expect(
      (await reader.post(`/statements/${id}/answers`, { _csrf: ConsoleClient.csrfOf(readerPage.text) }))
        .status,
    ).toBe(403);

    const stranger = new ConsoleClient(h.url);
    await stranger.signIn(await h.createKey({ org: 'other-org' }));
    for (const path of [`/statements/${id}`, `/statements/${id}/download/html`, '/statements/stm_nothing']) {
      const res = await stranger.get(path);
      expect([res.status, res.text.includes('There is nothing here')]).toEqual([404, true]);
    }
  });
});
