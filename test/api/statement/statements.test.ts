import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { SCHEMA_PATH } from '../../../scripts/statement-schema.js';
import { latestReviewOn } from '../../../api/domain/statement/compose.js';
import { sweepReviewsDue } from '../../../api/services/statement/review-due.js';
import type { Problem, Statement, StatementList } from '../../helpers/api-types.js';
import { gitHubMarkdown } from '../../helpers/github-render.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { eventPayloads } from '../../helpers/outbox.js';
import { COMPLETE_ANSWERS, seedStatementSite, type StatementSeed } from '../../helpers/statement-seed.js';

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateStatement = ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);

const DAY_MS = 86_400_000;

describe.each(dbKinds)('accessibility statements (%s)', (db) => {
  const h = useHarness({ db });
  let s: StatementSeed;
  const post = <T>(path: string, body: unknown, key = s.key) => h.request<T>('POST', path, { key, body });
  const patch = <T>(path: string, body: unknown, key = s.key) => h.request<T>('PATCH', path, { key, body });
  const count = async () => Number((await h.db('statements').count({ n: '*' }))[0].n);

  beforeAll(async () => {
    s = await seedStatementSite(h);
  });

  test('a draft from the published report says "partially compliant", lists what fails where, and each waiver under its reason', async () => {
    const res = await post<Statement>('/api/v1/statements', { siteId: s.siteId });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/statements/${res.body.id}`);
    const st = res.body;
    expect(st).toMatchObject({ status: 'draft', version: 1, previous_id: null, published: null });
    // The newest *final* report, not the draft generated after it.
    expect(st.preparation.evidence.report).toMatchObject({
      id: s.reportId,
      published: { by: 'Grace Officer' },
    });
    expect(st.compliance.status).toBe('partially');
    expect(st.compliance.reasons[0]).toMatch(
      /^2 criteria do not fully support: 0 Does Not Support, 2 Partially Supports/,
    );
    expect(
      st.non_accessible.non_compliance.criteria.map((c) => [c.id, c.conformance, c.pages, c.rules]),
    ).toEqual([
      ['1.1.1', 'partially-supports', ['/gallery', '/about'], ['image-alt']],
      ['1.4.3', 'partially-supports', ['/legacy/terms'], ['color-contrast']],
    ]);
    // The gallery's waived issue still counts (a waiver is not conformance), and says it is waived.
    expect(st.non_accessible.non_compliance.criteria[0]).toMatchObject({
      issues: 2,
      pages_affected: 2,
      waived: 1,
    });
    expect(st.non_accessible.non_compliance.waivers.map((w) => [w.id, w.category, w.criteria])).toEqual([
      [s.waivers.gallery.id, 'non-compliance', ['1.1.1']],
    ]);
    expect(st.non_accessible.disproportionate_burden.map((w) => w.id)).toEqual([s.waivers.legacy.id]);
    expect(st.non_accessible.outside_scope).toEqual([]);
    expect(st.missing.map((m) => m.field)).toEqual([
      'entity',
      'feedback',
      'contact_email',
      'enforcement_body',
      'enforcement_url',
      'alternatives',
    ]);
    expect(st.preparation).toMatchObject({
      method: 'self-assessment',
      prepared_on: null,
      next_review_on: null,
    });
    expect(validateStatement(st)).toBe(true);

    // The same in Markdown, read as GitHub would: the model statement's sections in order, no markup from data.
    const md = await h.request<string>('GET', `/api/v1/statements/${st.id}?format=md`, {
      key: s.readOnlyKey,
    });
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const tokens = gitHubMarkdown().parse(md.text, {});
    const headings = tokens.flatMap((t, i) => (t.type === 'heading_open' ? [tokens[i + 1].content] : []));
    expect(headings).toEqual([
      'Accessibility statement for Acme Shop',
      'Compliance status',
      'Non-accessible content',
      'Non-compliance with the accessibility requirements',
      'Disproportionate burden',
      'Content that is not within the scope of the applicable legislation',
      'Accessible alternatives',
      'Preparation of this accessibility statement',
      'Feedback and contact information',
      'Enforcement procedure',
    ]);
    expect(md.text).toContain('Acme Shop is partially compliant with EN 301 549');
    expect(md.text).toContain('`/gallery`');
    expect(
      tokens.some((t) => t.type === 'html_block' || t.children?.some((c) => c.type === 'html_inline')),
    ).toBe(false);
  });

  test('refusals store nothing: a draft report, another site’s report, bad answers, a read-only key, another org', async () => {
    const before = await count();
    const cases: Array<[unknown, string]> = [
      [{ siteId: s.siteId, report_id: s.draftReportId }, '#/report_id'],
      [{ siteId: s.siteId, answers: { contact_email: 'not an address' } }, '#/answers/contact_email'],
      [
        { siteId: s.siteId, answers: { enforcement_url: 'javascript:alert(1)' } },
        '#/answers/enforcement_url',
      ],
      [{ siteId: s.siteId, answers: { next_review_on: '2001-01-01' } }, '#/answers/next_review_on'],
      [{ siteId: s.siteId, colour: 'blue' }, '#'],
    ];
    for (const [body, pointer] of cases) {
      const res = await post<Problem>('/api/v1/statements', body);
      expect([res.status, res.headers.get('content-type')]).toEqual([
        422,
        'application/problem+json; charset=utf-8',
      ]);
      expect(res.body.errors?.map((e) => e.pointer)).toContain(pointer);
    }
    expect((await post<Problem>('/api/v1/statements', { siteId: s.siteId }, s.readOnlyKey)).status).toBe(403);
    const other = await h.createKey({ org: 'other-org' });
    expect((await post<Problem>('/api/v1/statements', { siteId: s.siteId }, other)).status).toBe(404);
    const theirs = await h.request<StatementList>('GET', '/api/v1/statements?siteId=shop', { key: other });
    expect(theirs.body.data).toEqual([]);
    expect(await count()).toBe(before);
  });

  test('answers complete the draft; publishing records the typed name and makes it final, once and for good', async () => {
    const [draft] = (
      await h.request<StatementList>('GET', `/api/v1/statements?siteId=${s.siteId}`, { key: s.key })
    ).body.data;
    expect(draft).toMatchObject({ version: 1, status: 'draft', compliance: 'partially', missing: 6 });
    const answered = await patch<Statement>(`/api/v1/statements/${draft.id}`, { answers: COMPLETE_ANSWERS });
    expect(answered.status).toBe(200);
    expect(answered.body.missing).toEqual([]);
    expect(answered.body.answers).toMatchObject(COMPLETE_ANSWERS);

    expect((await post<Problem>(`/api/v1/statements/${draft.id}/publish`, {})).status).toBe(422);
    const res = await post<Statement>(`/api/v1/statements/${draft.id}/publish`, {
      publisher: 'Grace Officer',
    });
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    // The name the person typed, never the calling key's ("compliance-bot").
    expect(res.body).toMatchObject({ id: draft.id, status: 'final', published: { by: 'Grace Officer' } });
    expect(res.body.preparation).toMatchObject({
      prepared_on: today,
      last_reviewed_on: today,
      next_review_on: latestReviewOn(today),
    });
    const events = await eventPayloads(h.db, 'statement.published', 'acme');
    expect(events.map((e) => [e.data.id, e.data.status, e.data.published?.by])).toEqual([
      [draft.id, 'final', 'Grace Officer'],
    ]);

    // Final means final: no answer, no second publication, nothing written.
    const stored = await h.db('statements').where({ id: draft.id }).first<{ statement: string }>('statement');
    expect(
      (await patch<Problem>(`/api/v1/statements/${draft.id}`, { answers: { entity: 'Someone else' } }))
        .status,
    ).toBe(409);
    expect(
      (await post<Problem>(`/api/v1/statements/${draft.id}/publish`, { publisher: 'Mallory' })).status,
    ).toBe(409);
    expect(await h.db('statements').where({ id: draft.id }).first('statement')).toEqual(stored);
    expect(await eventPayloads(h.db, 'statement.published', 'acme')).toHaveLength(1);

    for (const [format, type, text] of [
      ['html', 'text/html; charset=utf-8', 'Acme Shop is partially compliant with EN 301 549'],
      ['eaa', 'text/html; charset=utf-8', 'Perceivable: '],
    ]) {
      const out = await h.request<string>('GET', `/api/v1/statements/${draft.id}?format=${format}`, {
        key: s.key,
      });
      expect([out.status, out.headers.get('content-type')]).toEqual([200, type]);
      expect(out.text).toContain(text);
      expect(out.text).toContain('Version 1, published by Grace Officer on');
    }
  });

  test('the next version starts from the previous one’s answers; one draft at a time', async () => {
    const res = await post<Statement>('/api/v1/statements', {
      siteId: s.siteId,
      answers: { method: 'third-party' },
    });
    expect(res.status).toBe(201);
    const v1 = res.body.previous_id!;
    expect(res.body).toMatchObject({ version: 2, status: 'draft', answers: COMPLETE_ANSWERS });
    expect(res.body.preparation.prepared_on).toBe(
      (await h.request<Statement>('GET', `/api/v1/statements/${v1}`, { key: s.key })).body.preparation
        .prepared_on,
    );
    // A third party evaluated, and the report used no assessment to name one: a person has to.
    expect(res.body.missing.map((m) => m.field)).toEqual(['evaluator']);
    expect((await post<Problem>('/api/v1/statements', { siteId: s.siteId })).status).toBe(409);

    const soon = new Date(Date.now() + 180 * DAY_MS).toISOString().slice(0, 10);
    await patch(`/api/v1/statements/${res.body.id}`, {
      answers: { evaluator: 'Access Audits Ltd', next_review_on: soon },
    });
    const final = await post<Statement>(`/api/v1/statements/${res.body.id}/publish`, {
      publisher: 'Grace Officer',
    });
    expect(final.body.preparation).toMatchObject({
      method: 'third-party',
      evaluator: 'Access Audits Ltd',
      next_review_on: soon,
    });
    const list = await h.request<StatementList>('GET', `/api/v1/statements?siteId=${s.siteId}`, {
      key: s.readOnlyKey,
    });
    expect(list.body.data.map((d) => [d.version, d.status])).toEqual([
      [2, 'final'],
      [1, 'final'],
    ]);
  });

  test('statement.review_due is recorded once per version, for a site’s newest published version only', async () => {
    const ctx = h.server.service.ctx;
    const [newest] = (
      await h.request<StatementList>('GET', `/api/v1/statements?siteId=${s.siteId}`, { key: s.key })
    ).body.data;
    const due = Date.parse(`${newest.next_review_on}T00:00:00Z`);
    expect(await sweepReviewsDue(ctx, new Date(due - 40 * DAY_MS))).toBe(0);
    const at = new Date(due - 20 * DAY_MS);
    const counts = await Promise.all([
      sweepReviewsDue(ctx, at),
      sweepReviewsDue(ctx, at),
      sweepReviewsDue(ctx, at),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    // A year on, version 1's own date has passed too; it was replaced, so it is not reviewed.
    expect(await sweepReviewsDue(ctx, new Date(due + 400 * DAY_MS))).toBe(0);
    const events = await eventPayloads(h.db, 'statement.review_due', 'acme');
    expect(events.map((e) => [e.data.id, e.data.version, e.data.next_review_on])).toEqual([
      [newest.id, 2, newest.next_review_on],
    ]);
  });

  test('deleting the site deletes its statements with it', async () => {
    const [newest] = (
      await h.request<StatementList>('GET', `/api/v1/statements?siteId=${s.siteId}`, { key: s.key })
    ).body.data;
    expect(await count()).toBe(2);
    expect((await h.request('DELETE', `/api/v1/sites/${s.siteId}`, { key: s.key })).status).toBe(204);
    expect(await count()).toBe(0);
    expect((await h.request<Problem>('GET', `/api/v1/statements/${newest.id}`, { key: s.key })).status).toBe(
      404,
    );
  });
});
