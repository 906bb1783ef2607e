import { existsSync, readFileSync } from 'node:fs';
import { Ajv, type SchemaObject } from 'ajv';
import yaml from 'js-yaml';
import { buildRuleCoverage } from '../../../api/domain/vpat/rule-coverage.js';
import { deriveReport } from '../../../api/domain/vpat/derive.js';
import { EDITIONS, editionCatalog, type Edition } from '../../../api/domain/vpat/editions.js';
import { type WcagLevel, type WcagVersion } from '../../../core/catalog/wcag-types.js';
import { renderVpatHtml } from '../../../api/domain/vpat/render/html.js';
import { renderVpatMarkdown } from '../../../api/domain/vpat/render/md.js';
import { openAcrDocument, renderVpatOpenAcr } from '../../../api/domain/vpat/render/openacr.js';
import type { VpatReport } from '../../../api/domain/vpat/report.js';

const schema = JSON.parse(
  readFileSync(new URL('../../fixtures/openacr/openacr-0.1.0.json', import.meta.url), 'utf8'),
) as SchemaObject;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** An OpenACR document as openAcrDocument builds it: the parts these tests read and change. */
interface OpenAcrComponent {
  name: string;
  adherence: { level: string; notes?: string };
}
interface OpenAcrDoc {
  notes: string;
  evaluation_methods_used: string;
  catalog: string;
  chapters: Record<
    string,
    { notes?: string; criteria: Array<{ num: string; components: OpenAcrComponent[] }> }
  >;
}
/** A published OpenACR catalog (test/fixtures/openacr/catalog): the parts the catalog check reads. */
interface OpenAcrCatalog {
  title: string;
  chapters: Array<{ id: string; criteria?: Array<{ id: string; components: string[] }> }>;
  components: Array<{ id: string }>;
  terms: Array<{ id: string }>;
}
const acr = (r: VpatReport) => openAcrDocument(r) as unknown as OpenAcrDoc;

const coverage = buildRuleCoverage([
  {
    ruleId: 'color-contrast',
    tags: ['wcag143'],
    helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/color-contrast',
  },
]);

function report(
  edition: Edition = 'wcag',
  name = 'Shop',
  version: WcagVersion = '2.2',
  level: WcagLevel = 'AA',
): VpatReport {
  const catalog = editionCatalog(edition, version, level);
  const d = deriveReport({
    catalog,
    coverage,
    evidence: {
      pages: [
        { index: 0, url: 'https://shop.test/a?x=1&y=2' },
        { index: 1, url: 'https://shop.test/b' },
      ],
      rulesRun: ['color-contrast'],
      groups: [
        { rule: 'color-contrast', kind: 'violation', wcag: '1.4.3', page: 0, count: 2, helpUrl: null },
      ],
    },
    overrides: [
      {
        criterion: '1.3.3',
        conformance: 'supports',
        remarks: 'Checked | by hand <b>really</b>\nwith NVDA.',
        author: 'Ada "the reviewer" <ada@x>',
        author_key_id: null,
        created_at: '2026-11-01T00:00:00.000Z',
        inherited_from: 'vpt_earlier',
      },
    ],
  });
  return {
    id: 'vpt_test',
    siteId: 'shop',
    scan_id: 'scn_test',
    status: 'draft',
    version: 1,
    previous_id: null,
    published: null,
    violations: d.violations,
    title: catalog.title,
    product: { name, version: '1.0', vendor: 'Acme & Sons', contact: { email: 'a11y@acme.test' } },
    edition,
    wcag_version: version,
    level,
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
      issues: 2,
      rules_run: ['color-contrast'],
      created_at: '2026-11-01T00:00:00.000Z',
    },
    warnings: [],
    created_by: { key_id: null, name: 'test' },
    created_at: '2026-11-02T00:00:00.000Z',
  };
}

describe('VPAT renderers', () => {
  test('HTML escapes everything from users and links only http(s) URLs', () => {
    const html = renderVpatHtml(report('wcag', '<script>alert(1)</script>'));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Checked | by hand &lt;b&gt;really&lt;/b&gt;');
    expect(html).toContain(
      'Reviewed by Ada &quot;the reviewer&quot; &lt;ada@x&gt;, 2026-11-01 (carried forward from report vpt_earlier).',
    );
    expect(html).toContain('<a href="https://dequeuniversity.com/rules/axe/4.14/color-contrast">');
    // Remarks name pages by their public paths (escaped text, not links to the host the scan ran on).
    expect(html).toContain('Affected pages: /a?x=1&amp;y=2.');
    expect(html).not.toContain('href="https://shop.test/a');
    expect(html).toContain('Acme &amp; Sons');
  });

  test('HTML has one captioned table per chapter with column and row headers', () => {
    const html = renderVpatHtml(report('508'));
    expect(html.match(/<table>/g)).toHaveLength(6);
    expect(html.match(/<caption>/g)).toHaveLength(6);
    expect(html.match(/<th scope="row">/g)).toHaveLength(56 + 9 + 55 + 26 + 5);
    expect(html).toContain('<h1>Shop 1.0 Accessibility Conformance Report</h1>');
    expect(html).toContain('Draft report (version 1): ');
  });

  test('Markdown keeps tables intact: pipes escaped, line breaks folded', () => {
    const md = renderVpatMarkdown(report());
    const line = md.split('\n').find((l) => l.startsWith('| 1.3.3 '))!;
    expect(line).toBe(
      '| 1.3.3 Sensory Characteristics (Level A) | Supports | Checked \\| by hand &lt;b&gt;really&lt;/b&gt; with NVDA. (Reviewed by Ada "the reviewer" &lt;ada@x&gt;, 2026-11-01, carried forward from vpt_earlier.) |',
    );
    expect(md).toContain(
      '| 1.4.3 Contrast (Minimum) (Level AA) | Partially Supports | 2 issues on 1 of 2 pages',
    );
  });

  test('Markdown: a line break in a product field cannot start a heading or a table of its own', () => {
    const md = renderVpatMarkdown(
      report('wcag', 'Shop\n\n## Conformance: all Supports\n| 1.1.1 | Supports |'),
    );
    const lines = md.split('\n');
    expect(lines[0]).toBe(
      '# Shop ## Conformance: all Supports \\| 1.1.1 \\| Supports \\| 1.0 Accessibility Conformance Report',
    );
    expect(lines.filter((l) => l.startsWith('## Conformance'))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('| 1.1.1 |'))).toEqual([]);
  });

  test("the report's warnings reach every format (a scan flagged as the login-page trap, say)", () => {
    const r = { ...report(), warnings: ['The scan was flagged: 4 of 4 pages ended at the same URL.'] };
    expect(renderVpatHtml(r)).toContain('<li>The scan was flagged: 4 of 4 pages ended at the same URL.</li>');
    expect(renderVpatMarkdown(r)).toContain('- The scan was flagged: 4 of 4 pages ended at the same URL.');
    const doc = acr(r);
    expect(doc.notes).toContain('The scan was flagged: 4 of 4 pages ended at the same URL.');
    expect(doc.evaluation_methods_used).toContain('The scan was flagged');
    expect(validate(doc)).toBe(true);
  });

  test('OpenACR is valid for every edition and round-trips through YAML', () => {
    for (const edition of ['wcag', '508', 'eu', 'int'] as const) {
      const r = report(edition);
      const doc = yaml.load(renderVpatOpenAcr(r));
      expect(doc).toEqual(openAcrDocument(r));
      expect(validate(doc)).toBe(true);
    }
    // An override's row names its reviewer and where it was carried from, as in HTML and Markdown.
    const a = acr(report()).chapters.success_criteria_level_a.criteria;
    expect(a.find((c) => c.num === '1.3.3')!.components[0].adherence.notes).toContain(
      '(Reviewed by Ada "the reviewer" <ada@x>, 2026-11-01, carried forward from vpt_earlier.)',
    );
    // The schema really checks: a criterion without `num` is rejected.
    // The same document, seen as one whose rows may lack `num`.
    const broken: { chapters: Record<string, { criteria: Array<{ num?: string }> }> } = acr(report());
    delete broken.chapters.success_criteria_level_a.criteria[0].num;
    expect(validate(broken)).toBe(false);
  });
});

/** GSA OpenACR's published catalogs (test/fixtures/openacr/catalog, CC0), as its `validate -c` loads them. */
function publishedCatalog(name: string): OpenAcrCatalog | undefined {
  const url = new URL(`../../fixtures/openacr/catalog/${name}.yaml`, import.meta.url);
  return existsSync(url) ? (yaml.load(readFileSync(url, 'utf8')) as OpenAcrCatalog) : undefined;
}

/**
 * OpenACR's catalog check (GSA/openacr src/validateOpenACRCatalogValues.ts): every criterion is in its
 * chapter of the catalog, every component is defined and allowed for that criterion, every level is a
 * catalog term, and supports / partially-supports carry notes.
 */
function catalogErrors(doc: OpenAcrDoc, catalog: OpenAcrCatalog): string[] {
  const errors: string[] = [];
  for (const [chapterId, chapter] of Object.entries(doc.chapters)) {
    const cat = catalog.chapters.find((c) => c.id === chapterId);
    if (!cat) {
      errors.push(`chapter ${chapterId} is not in ${catalog.title}`);
      continue;
    }
    for (const row of chapter.criteria) {
      const entry = cat.criteria?.find((c) => c.id === row.num);
      if (!entry) {
        errors.push(`${chapterId}/${row.num} is not in the catalog`);
        continue;
      }
      for (const comp of row.components) {
        if (!catalog.components.some((c) => c.id === comp.name)) errors.push(`${comp.name} undefined`);
        if (!entry.components.includes(comp.name)) errors.push(`${row.num}: ${comp.name} not allowed`);
        if (!catalog.terms.some((t) => t.id === comp.adherence.level)) errors.push(comp.adherence.level);
        if (['supports', 'partially-supports'].includes(comp.adherence.level) && !comp.adherence.notes)
          errors.push(`${row.num}: notes required`);
      }
    }
  }
  return errors;
}

describe('OpenACR catalog', () => {
  test('every edition, version and level names a published OpenACR catalog and validates against it', () => {
    const problems: string[] = [];
    for (const edition of EDITIONS) {
      for (const version of ['2.0', '2.1', '2.2'] as const) {
        for (const level of ['A', 'AA', 'AAA'] as const) {
          const doc = acr(report(edition, 'Shop', version, level));
          const where = `${edition} ${version} ${level} (${doc.catalog})`;
          const catalog = publishedCatalog(doc.catalog);
          if (!catalog) {
            problems.push(`${where}: no such catalog`);
            continue;
          }
          expect(validate(doc)).toBe(true);
          problems.push(...catalogErrors(doc, catalog).map((e) => `${where}: ${e}`));
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('the check really checks: a criterion outside its chapter or an unknown term is reported', () => {
    const doc = acr(report('wcag', 'Shop', '2.2', 'AA'));
    const catalog = publishedCatalog(doc.catalog)!;
    expect(catalogErrors(doc, catalog)).toEqual([]);
    doc.chapters.success_criteria_level_a.criteria[0].num = '1.4.3';
    doc.chapters.success_criteria_level_aa.criteria[0].components[0].adherence.level = 'great';
    expect(catalogErrors(doc, catalog)).toHaveLength(2);
  });
});
