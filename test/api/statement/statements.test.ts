import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { SCHEMA_PATH } from '../../../scripts/statement-schema.js';
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
    expect(
      (await h.request<Problem>('GET', '/api/v1/statements?siteId=shop', { key: other })).body,
    ).toMatchObject({
      data: [],
    });
    expect(await count()).toBe(before);
  });
});
