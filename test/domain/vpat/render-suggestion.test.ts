import { readFileSync } from 'node:fs';
import { Ajv, type SchemaObject } from 'ajv';
import yaml from 'js-yaml';
import { buildRuleCoverage } from '../../../api/domain/vpat/rule-coverage.js';
import { deriveReport } from '../../../api/domain/vpat/derive.js';
import { editionCatalog } from '../../../api/domain/vpat/editions.js';
import { renderVpatHtml } from '../../../api/domain/vpat/render/html.js';
import { renderVpatMarkdown } from '../../../api/domain/vpat/render/md.js';
import { renderVpatOpenAcr } from '../../../api/domain/vpat/render/openacr.js';
import { renderVpatPdf } from '../../../api/domain/vpat/render/pdf.js';
import type { OverrideRecord, VpatReport } from '../../../api/domain/vpat/report.js';
import { readPdf } from '../../helpers/pdf.js';

// The suggestion's words as docs/vpat.md quotes them: the rule, the page count, and who decides.
const SUGGESTED =
  'Suggested: Not Applicable. The axe-core rule that tests this criterion (video-caption) found nothing to test on any of the 2 scanned pages. A person decides whether the criterion applies.';

const schema = JSON.parse(
  readFileSync(new URL('../../fixtures/openacr/openacr-0.1.0.json', import.meta.url), 'utf8'),
) as SchemaObject;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

const coverage = buildRuleCoverage([
  {
    ruleId: 'video-caption',
    tags: ['wcag122'],
    helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/video-caption',
  },
  {
    ruleId: 'color-contrast',
    tags: ['wcag143'],
    helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/color-contrast',
  },
]);

/**
 * Two pages without video (video-caption had nothing to test on either) whose text passed color-contrast:
 * 1.2.2 waits for a person with a suggestion, 1.4.3 waits without one.
 */
function report(overrides: OverrideRecord[] = [], status: VpatReport['status'] = 'draft'): VpatReport {
  const catalog = editionCatalog('wcag', '2.2', 'AA');
  const d = deriveReport({
    catalog,
    coverage,
    evidence: {
      pages: [0, 1].map((index) => ({
        index,
        url: `https://shop.test/${index}`,
        rulesInapplicable: ['video-caption'],
      })),
      rulesRun: ['video-caption', 'color-contrast'],
      groups: [],
    },
    overrides,
  });
  return {
    id: 'vpt_test',
    siteId: 'shop',
    scan_id: 'scn_test',
    status,
    version: 1,
    previous_id: null,
    published: status === 'final' ? { by: 'Grace Officer', at: '2026-11-03T00:00:00.000Z' } : null,
    violations: d.violations,
    title: catalog.title,
    product: { name: 'Shop', version: '1.0', description: 'The shop.', contact: { email: 'a11y@acme.test' } },
    edition: 'wcag',
    wcag_version: '2.2',
    level: 'AA',
    catalog: catalog.catalogName,
    evaluation_methods: 'Automated testing with axe-core.',
    standards: catalog.standards,
    chapters: catalog.chapters.map((c) => ({
      id: c.id,
      standard: c.standard,
      label: c.label,
      note: c.note ?? null,
    })),
    criteria: d.criteria,
    overrides: d.overrides,
    summary: d.summary,
    scan: {
      id: 'scn_test',
      url: 'https://shop.test/',
      sha: null,
      branch: 'main',
      engine: { name: 'axe-core', version: '4.14.1' },
      pages: 2,
      issues: 0,
      rules_run: ['video-caption', 'color-contrast'],
      created_at: '2026-11-01T00:00:00.000Z',
    },
    warnings: [],
    created_by: { key_id: null, name: 'test' },
    created_at: '2026-11-02T00:00:00.000Z',
  };
}

const decided: OverrideRecord = {
  criterion: '1.2.2',
  kind: 'level',
  conformance: 'not-applicable',
  remarks: 'The site has no video.',
  author: 'Grace Officer',
  author_key_id: null,
  created_at: '2026-11-02T00:00:00.000Z',
  inherited_from: null,
};

/** The Markdown table line of a criterion. */
const mdRow = (md: string, id: string) => md.split('\n').find((l) => l.startsWith(`| ${id} `))!;
/** The HTML table row of a criterion. */
const htmlRow = (html: string, id: string) =>
  /<tr id="c-[^"]+">[\s\S]*?<\/tr>/g.exec(html.slice(html.indexOf(`<tr id="c-${id}"`)))![0];
interface Acr {
  chapters: Record<
    string,
    { criteria: Array<{ num: string; components: Array<{ adherence: { level: string; notes?: string } }> }> }
  >;
}
const acrNotes = (text: string, id: string) => {
  const doc = yaml.load(text) as Acr;
  const row = Object.values(doc.chapters)
    .flatMap((c) => c.criteria)
    .find((c) => c.num === id)!;
  return row.components[0].adherence;
};
async function pdfText(r: VpatReport): Promise<string> {
  return readPdf(await renderVpatPdf(r)).text;
}

describe('the Not Applicable suggestion in the downloads', () => {
  test('the evidence gives 1.2.2 a suggestion and 1.4.3 none (both wait for a person)', () => {
    const r = report();
    const row = (id: string) => r.criteria.find((c) => c.id === id)!;
    expect(row('1.2.2')).toMatchObject({ conformance: 'not-evaluated', needs_review: true });
    expect(row('1.2.2').suggestion?.reason).toBe(SUGGESTED);
    expect(row('1.4.3')).toMatchObject({ conformance: 'not-evaluated', basis: 'rules-passed' });
    expect(row('1.4.3').suggestion).toBeUndefined();
  });

  test('HTML: in the remarks of the suggested row only, which keeps its level', () => {
    const html = renderVpatHtml(report());
    const row = htmlRow(html, '1.2.2');
    expect(row).toContain('<td>Not Evaluated</td>');
    expect(row).toContain(
      '<p class="suggestion"><strong>Suggested: Not Applicable.</strong> The axe-core rule that tests this criterion (video-caption) found nothing to test on any of the 2 scanned pages. A person decides whether the criterion applies.</p>',
    );
    expect(html.match(/Suggested: /g)).toHaveLength(1);
    expect(htmlRow(html, '1.4.3')).not.toContain('Suggested');
  });

  test('Markdown: after the remarks in the same cell, the table intact', () => {
    const md = renderVpatMarkdown(report());
    const line = mdRow(md, '1.2.2');
    expect(line).toMatch(
      /^\| 1\.2\.2 Captions \(Prerecorded\) \(Level A\) \| Not Evaluated \| Not evaluated: .* \|$/,
    );
    expect(line.replace(/\*\*/g, '')).toContain(`${SUGGESTED} |`);
    expect(line.split(' | ')).toHaveLength(3);
    expect(md.match(/Suggested: /g)).toHaveLength(1);
    expect(mdRow(md, '1.4.3')).not.toContain('Suggested');
  });

  test('OpenACR: in the row’s notes (OpenACR has no other place), level not-evaluated, valid against the schema', () => {
    const text = renderVpatOpenAcr(report());
    expect(validate(yaml.load(text))).toBe(true);
    const a = acrNotes(text, '1.2.2');
    expect(a.level).toBe('not-evaluated');
    expect(a.notes).toMatch(/^Not evaluated: /);
    expect(a.notes!.endsWith(` ${SUGGESTED}`)).toBe(true);
    expect(text.match(/Suggested: /g)).toHaveLength(1);
    expect(acrNotes(text, '1.4.3').notes).not.toContain('Suggested');
  });

  test('PDF: the reader finds it in the 1.2.2 row', async () => {
    const text = await pdfText(report());
    // pdftotext joins a word hyphenated at a line end: compare without hyphens.
    const flat = text.replace(/-/g, '');
    expect(flat).toContain(SUGGESTED.replace(/-/g, ''));
    expect(text.match(/Suggested: /g)).toHaveLength(1);
  });

  test('a row a person decided and a published report show no suggestion in any format', async () => {
    const answered = report([decided]);
    expect(answered.criteria.find((c) => c.id === '1.2.2')).toMatchObject({ conformance: 'not-applicable' });
    // A published report whose stored row still held a suggestion (as an old report might) shows none either.
    const stale = report([], 'final');
    expect(stale.criteria.find((c) => c.id === '1.2.2')!.suggestion).toBeDefined();
    for (const [name, r] of [
      ['answered', answered],
      ['final', stale],
    ] as const) {
      const outputs = [renderVpatHtml(r), renderVpatMarkdown(r), renderVpatOpenAcr(r), await pdfText(r)];
      expect([name, outputs.map((o) => o.includes('Suggested'))]).toEqual([
        name,
        [false, false, false, false],
      ]);
    }
  });
});
