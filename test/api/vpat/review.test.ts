import { readFileSync } from 'node:fs';
import { Ajv, type SchemaObject } from 'ajv';
import yaml from 'js-yaml';
import { closeBrowser, haveChromium, runAxe, type AxeResults } from '../../helpers/axe-browser.js';
import type {
  CreatedScan,
  Problem,
  ReportCriterion,
  VpatDiff,
  VpatList,
  VpatReport,
} from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { eventPayloads } from '../../helpers/outbox.js';
import { readPdf } from '../../helpers/pdf.js';
import { chromium, describeWith } from '../../helpers/requirements.js';

// From draft to final on a real axe-core run in Chromium over three pages written here: an unlabelled input,
// an image without alt text, and a clean page. Without Chromium these tests cannot mean anything: they fail
// under CI and are skipped (saying so) elsewhere.

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body><main><h1>${title}</h1>${body}</main></body></html>`;
const PAGES = {
  signup: page(
    'Sign up',
    '<form><p>Your e-mail</p><input type="text" name="email"><button>Join</button></form>',
  ),
  gallery: page('Gallery', '<p>Our shop cat:</p><img src="/cat.png" width="40" height="40">'),
  about: page('About us', '<p>We sell things, accessibly.</p>'),
  galleryFixed: page(
    'Gallery',
    '<p>Our shop cat:</p><img src="/cat.png" width="40" height="40" alt="A ginger cat">',
  ),
};

const openAcrSchema = JSON.parse(
  readFileSync(new URL('../../fixtures/openacr/openacr-0.1.0.json', import.meta.url), 'utf8'),
) as SchemaObject;
const validateOpenAcr = new Ajv({ allErrors: true, strict: false }).compile(openAcrSchema);
const product = {
  name: 'Signup',
  version: '3.1',
  vendor: 'Acme Corp',
  contact: 'a11y@acme.test',
  description: 'The sign-up flow of the Acme web shop.',
};
const row = (report: VpatReport, id: string): ReportCriterion => {
  const found = report.criteria.find((c) => c.id === id);
  if (!found) throw new Error(`${id} is not a row of report ${report.id}`);
  return found;
};

const axeOf: Record<string, AxeResults> = {};
beforeAll(async () => {
  if (!haveChromium) return;
  for (const [name, html] of Object.entries(PAGES)) {
    axeOf[name] = await runAxe(html, { url: `http://signup.test/${name}` });
  }
}, 120_000);
afterAll(async () => {
  await closeBrowser();
});

async function noAxeViolations(html: string): Promise<string[]> {
  const result = await runAxe(html);
  return result.violations.map((v) => `${v.id}: ${v.nodes.length}`);
}

describeWith(chromium, 'VPAT review in Chromium', () => {
  describe.each(dbKinds)('VPAT review, publication, diff and exports (%s)', (db) => {
    const h = useHarness({ db });
    let key: string;
    let readKey: string;

    beforeAll(async () => {
      key = await h.createKey({ org: 'acme', name: 'compliance-bot' });
      readKey = await h.createKey({ org: 'acme', scopes: ['read'] });
    });

    async function scan(pages: Array<keyof typeof PAGES>): Promise<string> {
      const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
        key,
        body: {
          siteId: 'signup',
          url: 'http://signup.test/',
          branch: 'main',
          pages: pages.map((p) => ({ url: `http://signup.test/${p.replace('Fixed', '')}`, axe: axeOf[p] })),
        },
      });
      expect(res.status).toBe(201);
      return res.body.id;
    }
    const post = <T = unknown>(p: string, body: unknown, k = key) =>
      h.request<T>('POST', p, { key: k, body });
    const count = async () => Number((await h.db('vpat_reports').count({ n: '*' }))[0].n);

    test('draft → review → final: nothing is Supports without a person; ACT relates label to 1.3.1 and 2.5.3', async () => {
      const scanId = await scan(['signup', 'gallery', 'about']);
      const gen = await post<VpatReport>('/api/v1/vpat/generate', {
        siteId: 'signup',
        scan_id: scanId,
        product,
      });
      expect(gen.status).toBe(201);
      const r1 = gen.body;
      expect(r1).toMatchObject({ status: 'draft', version: 1, previous_id: null, published: null });
      expect(r1.criteria.filter((c) => c.conformance === 'supports')).toEqual([]);
      expect(row(r1, '4.1.2')).toMatchObject({ conformance: 'partially-supports', basis: 'violations' });
      expect(row(r1, '1.1.1')).toMatchObject({ conformance: 'partially-supports', basis: 'violations' });
      for (const id of ['1.3.1', '2.5.3']) {
        expect(row(r1, id)).toMatchObject({ conformance: 'not-evaluated', needs_review: true });
        expect(row(r1, id).related).toEqual([
          expect.objectContaining({
            rule: 'label',
            act_rule: 'e086e5',
            role: 'secondary',
            pages_affected: 1,
          }),
        ]);
        expect(row(r1, id).remarks).toMatch(
          new RegExp(
            `^Needs review: label failed 1 time on 1 page \\(W3C ACT rule e086e5 .* relates it to ${id.replace(/\./g, '\\.')}`,
          ),
        );
      }
      expect(row(r1, '3.1.1')).toMatchObject({ conformance: 'not-evaluated', basis: 'rules-passed' });
      expect(row(r1, '3.1.1').remarks).toContain(
        'No automated failures: rules html-has-lang, html-lang-valid and html-xml-lang-mismatch ran on 3 of 3 pages',
      );
      expect(r1.violations).toEqual([
        { rule: 'image-alt', issues: 1, pages_affected: 1 },
        { rule: 'label', issues: 1, pages_affected: 1 },
      ]);

      // Confirming is only for rules-passed evidence with no related failure: 422 with pointers, nothing stored.
      const before = await count();
      const refused = await post<Problem>(`/api/v1/vpat/${r1.id}/review`, {
        author: 'Ada Reviewer',
        decisions: [
          { criterion: '3.1.1', confirm: true, remarks: 'Checked the lang of every template.' },
          { criterion: '1.3.1', confirm: true, remarks: 'Looks fine.' },
          { criterion: '1.3.3', confirm: true, remarks: 'Nothing to confirm.' },
        ],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors!.map((e) => e.pointer)).toEqual([
        '#/decisions/1/confirm',
        '#/decisions/2/confirm',
      ]);
      expect(refused.body.errors![0].detail).toContain('label');
      expect(refused.body.errors![1].detail).toContain('no-coverage');
      const malformed = await post<Problem>(`/api/v1/vpat/${r1.id}/review`, {
        author: 'Ada Reviewer',
        decisions: [
          { criterion: '1.3.3', remarks: 'Neither a level nor a confirmation.' },
          { criterion: '2.4.2', confirm: true, conformance: 'supports', remarks: 'Both.' },
          { criterion: '2.4.2', conformance: 'supports', remarks: 'Twice.' },
          { criterion: '9.9.9', conformance: 'supports', remarks: 'No such row.' },
        ],
      });
      expect(malformed.status).toBe(422);
      expect(malformed.body.errors!.map((e) => e.pointer)).toEqual([
        '#/decisions/0/conformance',
        '#/decisions/1/conformance',
        '#/decisions/2/criterion',
        '#/decisions/3/criterion',
      ]);
      expect(await count()).toBe(before);

      // A review: a new immutable version with who, when and the remarks.
      const t0 = Date.now();
      const rev = await post<VpatReport>(`/api/v1/vpat/${r1.id}/review`, {
        author: 'Ada Reviewer',
        decisions: [
          { criterion: '3.1.1', confirm: true, remarks: 'Checked the lang of every template.' },
          {
            criterion: '1.3.3',
            conformance: 'supports',
            remarks: 'No instruction relies on shape or position.',
          },
        ],
      });
      expect(rev.status).toBe(201);
      const r2 = rev.body;
      expect(rev.headers.get('location')).toBe(`/api/v1/vpat/${r2.id}`);
      expect(r2).toMatchObject({ status: 'draft', version: 2, previous_id: r1.id });
      expect(row(r2, '3.1.1')).toMatchObject({
        conformance: 'supports',
        source: 'override',
        basis: 'confirmed',
        needs_review: false,
      });
      expect(row(r2, '3.1.1').override).toMatchObject({ kind: 'confirm', author: 'Ada Reviewer' });
      expect(Date.parse(row(r2, '3.1.1').override!.created_at)).toBeGreaterThanOrEqual(t0 - 1000);
      expect(row(r2, '3.1.1').remarks).toContain('Confirmed by Ada Reviewer');
      expect(row(r2, '3.1.1').remarks).toContain('No automated failures');
      const read = (await h.request<VpatReport>('GET', `/api/v1/vpat/${r1.id}`, { key })).body;
      // The read adds whether newer evidence exists; the report itself is the one generated.
      const { behind, ...stored } = read as VpatReport & { behind?: { summary: string } };
      expect(stored).toEqual(r1);
      expect(behind?.summary).toBe('up to date');

      // Publishing with undecided rows: 422 listing each one.
      const early = await post<Problem>(`/api/v1/vpat/${r2.id}/publish`, { publisher: 'Grace Officer' });
      expect(early.status).toBe(422);
      expect(early.body.errors).toHaveLength(r2.summary.undecided);
      const undecided = r2.criteria.filter((c) => c.needs_review);
      expect(early.body.errors!.map((e) => e.detail.split(' ')[0])).toEqual(undecided.map((c) => c.id));
      expect(early.body.errors!.map((e) => e.detail)).toContainEqual(
        expect.stringMatching(/^1\.3\.1 Info and Relationships/),
      );

      // Decide the rest: confirm clean evidence, answer the others with a level (2.5.3 knowingly over `label`).
      const rest = undecided.map((c) =>
        c.basis === 'rules-passed' && c.related.length === 0
          ? { criterion: c.id, confirm: true, remarks: 'Checked by hand as well.' }
          : {
              criterion: c.id,
              conformance: c.id === '1.3.1' ? 'partially-supports' : 'supports',
              remarks: 'Expert review.',
            },
      );
      const r3 = (
        await post<VpatReport>(`/api/v1/vpat/${r2.id}/review`, { author: 'Bob Reviewer', decisions: rest })
      ).body;
      expect(r3).toMatchObject({ version: 3, previous_id: r2.id });
      expect(r3.summary.undecided).toBe(0);
      expect(row(r3, '2.5.3').override!.related_failures).toEqual([
        expect.objectContaining({ rule: 'label' }),
      ]);
      expect(row(r3, '2.5.3').remarks).toContain('Answered despite related failures: label');
      // Earlier decisions are carried forward unchanged.
      expect(row(r3, '3.1.1').override).toEqual(row(r2, '3.1.1').override);

      const pub = await post<VpatReport>(`/api/v1/vpat/${r3.id}/publish`, { publisher: 'Grace Officer' });
      expect(pub.status).toBe(201);
      const final = pub.body;
      expect(final).toMatchObject({
        status: 'final',
        version: 4,
        previous_id: r3.id,
        published: { by: 'Grace Officer' },
      });
      expect(final.criteria).toEqual(r3.criteria);
      expect((await post(`/api/v1/vpat/${final.id}/publish`, { publisher: 'Grace Officer' })).status).toBe(
        409,
      );
      expect(
        (await post(`/api/v1/vpat/${final.id}/review`, { author: 'X', decisions: rest.slice(0, 1) })).status,
      ).toBe(409);
      // Versions form one line: the draft already published, or an older draft, cannot fork it.
      const again = await post<Problem>(`/api/v1/vpat/${r3.id}/publish`, { publisher: 'Grace Officer' });
      expect([again.status, again.body.detail]).toEqual([
        409,
        `Report ${r3.id} already has a newer version (${final.id}): review or publish that one.`,
      ]);
      expect((await post(`/api/v1/vpat/${r2.id}/review`, { author: 'X', decisions: rest })).status).toBe(409);
      const reviewed = await eventPayloads(h.db, 'vpat.reviewed', 'acme');
      expect(reviewed.map((m) => m.data.id)).toEqual([r2.id, r3.id]);
      expect((await eventPayloads(h.db, 'vpat.published', 'acme'))[0].data).toMatchObject({
        id: final.id,
        status: 'final',
        previous_id: r3.id,
      });

      // The diff of the first draft and the final report lists exactly the decisions made in between.
      const diff = (
        await h.request<VpatDiff>('GET', `/api/v1/vpat/${final.id}/diff?against=${r1.id}`, { key: readKey })
      ).body;
      const decided = ['3.1.1', '1.3.3', ...rest.map((d) => d.criterion)].sort();
      expect(diff.criteria.map((c) => c.id).sort()).toEqual(decided);
      expect(diff.overrides.added.map((o) => o.criterion).sort()).toEqual(decided);
      expect(diff.overrides).toMatchObject({ dropped: [], changed: [], made_stale: [] });
      expect(diff.violations).toEqual({ new: [], resolved: [], changed: [] });
      expect(diff.from).toMatchObject({ id: r1.id, version: 1 });
      // Without `against`: the version it was made from (publication changes no row).
      const since = (await h.request<VpatDiff>('GET', `/api/v1/vpat/${final.id}/diff`, { key: readKey }))
        .body;
      expect(since.from.id).toBe(r3.id);
      expect(since.criteria).toEqual([]);

      // Exports of the final report: no draft banner; HTML and the diff page pass axe-core; the PDF is tagged.
      const html = (await h.request('GET', `/api/v1/vpat/${final.id}?format=html`, { key })).text;
      expect(html).not.toContain('Draft report');
      expect(html).toContain('Final report, published by Grace Officer');
      expect(await noAxeViolations(html)).toEqual([]);
      const diffHtml = await h.request('GET', `/api/v1/vpat/${final.id}/diff?against=${r1.id}&format=html`, {
        key,
      });
      expect(diffHtml.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await noAxeViolations(diffHtml.text)).toEqual([]);
      const acr = yaml.load(
        (await h.request('GET', `/api/v1/vpat/${final.id}?format=openacr`, { key })).text,
      ) as { notes: string };
      expect(validateOpenAcr(acr) ? [] : validateOpenAcr.errors).toEqual([]);
      expect(acr.notes).toMatch(/^Final report/);

      const pdfRes = await fetch(`${h.url}/api/v1/vpat/${final.id}?format=pdf`, {
        headers: { authorization: `Bearer ${readKey}` },
      });
      expect(pdfRes.status).toBe(200);
      expect(pdfRes.headers.get('content-type')).toBe('application/pdf');
      const { info, text } = readPdf(Buffer.from(await pdfRes.arrayBuffer()));
      expect(info).toMatch(/^Tagged:\s+yes$/m);
      expect(info).toMatch(/^Title:\s+Signup 3\.1 Accessibility Conformance Report$/m);
      // pdftotext joins a word hyphenated at a line end ("Video-only" → "Videoonly"): compare without hyphens.
      const words = text.replace(/-/g, '');
      for (const c of final.criteria) expect(words).toContain(`${c.id} ${c.title}`.replace(/-/g, ''));
      expect(text).toContain('Final report, published by Grace Officer');
      expect(text).not.toContain('Draft report');
    }, 180_000);

    test('a new release: the diff shows the fixed image as resolved and carries decisions forward', async () => {
      const first = await scan(['signup', 'gallery', 'about']);
      const r1 = (
        await post<VpatReport>('/api/v1/vpat/generate', { siteId: 'signup', scan_id: first, product })
      ).body;
      const r2 = (
        await post<VpatReport>(`/api/v1/vpat/${r1.id}/review`, {
          author: 'Ada Reviewer',
          decisions: [{ criterion: '1.1.1', conformance: 'supports', remarks: 'Alt text added since.' }],
        })
      ).body;
      const second = await scan(['signup', 'galleryFixed', 'about']);
      const next = (
        await post<VpatReport>('/api/v1/vpat/generate', {
          siteId: 'signup',
          scan_id: second,
          product,
          inherit_overrides_from: r2.id,
        })
      ).body;
      const diff = (
        await h.request<VpatDiff>('GET', `/api/v1/vpat/${next.id}/diff?against=${r2.id}`, { key })
      ).body;
      expect(diff.violations).toEqual({
        new: [],
        resolved: [{ rule: 'image-alt', issues: 1, pages_affected: 1 }],
        changed: [],
      });
      expect(diff.overrides.added).toEqual([]);
      expect(diff.overrides.dropped).toEqual([]);
      // The override went stale on the old scan (image-alt failed) and is fresh now: only remarks changed.
      expect(diff.criteria.map((c) => [c.id, c.changed])).toEqual([['1.1.1', ['remarks']]]);
      // A draft PDF says it is a draft.
      const pdf = await fetch(`${h.url}/api/v1/vpat/${next.id}?format=pdf`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const { info, text } = readPdf(Buffer.from(await pdf.arrayBuffer()));
      expect(info).toMatch(/^Tagged:\s+yes$/m);
      expect(text).toContain('Draft report (version 1)');
    }, 60_000);

    test("list: a site's reports newest first, cursor-paginated, org-isolated", async () => {
      const all = (await h.request<VpatList>('GET', '/api/v1/vpat?siteId=signup&limit=100', { key: readKey }))
        .body.data;
      // The two tests above stored 4 + 3 versions of this site's reports.
      expect(all).toHaveLength(7);
      const times = all.map((r) => r.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      const p1 = await h.request<VpatList>('GET', '/api/v1/vpat?siteId=signup&limit=2', { key: readKey });
      expect(p1.body.data).toEqual(all.slice(0, 2));
      expect(p1.headers.get('link')).toContain('rel="next"');
      const p2 = await h.request<VpatList>(
        'GET',
        `/api/v1/vpat?siteId=signup&limit=2&cursor=${p1.body.next_cursor}`,
        {
          key: readKey,
        },
      );
      expect(p2.body.data).toEqual(all.slice(2, 4));
      expect(all[0]).toMatchObject({ siteId: 'signup', product: { name: 'Signup', version: '3.1' } });
      const other = await h.createKey({ org: 'globex' });
      expect(
        (await h.request<VpatList>('GET', '/api/v1/vpat?siteId=signup', { key: other })).body.data,
      ).toEqual([]);
      expect((await h.request('GET', '/api/v1/vpat', { key })).status).toBe(422);
      expect(
        (await h.request('GET', `/api/v1/vpat/${all[0].id}/diff?against=vpt_nothing000000000000`, { key }))
          .status,
      ).toBe(404);
      expect((await post(`/api/v1/vpat/${all[0].id}/review`, { author: 'X', decisions: [] })).status).toBe(
        422,
      );
      expect(
        (
          await post(`/api/v1/vpat/${all[0].id}/review`, {
            author: 'X',
            decisions: [{ criterion: '1.3.3', remarks: 'x' }],
          })
        ).status,
      ).toBe(422);
      expect(
        (
          await post(
            `/api/v1/vpat/${all[0].id}/review`,
            { author: 'X', decisions: [{ criterion: '1.3.3', conformance: 'supports', remarks: 'x' }] },
            readKey,
          )
        ).status,
      ).toBe(403);
      expect((await post(`/api/v1/vpat/vpt_nothing000000000000/publish`, { publisher: 'X' })).status).toBe(
        404,
      );
    }, 60_000);
  });
});
