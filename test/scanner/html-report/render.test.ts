import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { parse } from 'parse5';
import type { DeployEvent } from '../../../core/gate/deploy-event.js';
import { screenshotAlt } from '../../../core/scans/pictures.js';
import { entryOf } from '../../../scanner/baseline-file.js';
import { findingsOf } from '../../../scanner/findings.js';
import { localReport, serviceReport, unjudgedReport } from '../../../scanner/html-report/model.js';
import { renderHtmlReport } from '../../../scanner/html-report/render.js';
import { judgeLocally } from '../../../scanner/local-gate.js';
import type { PageOutcome } from '../../../scanner/page-scan.js';
import { fingerprintOf } from '../../../scanner/sarif.js';
import type { ScanRun } from '../../../scanner/scan.js';
import { byImpact } from '../../helpers/gate-result.js';

/** One violating element as axe-core reports it, and the picture the scanner took of it. */
interface Node {
  rule: string;
  impact: string;
  selector: string;
  html: string;
  message: string;
  help: string;
  helpUrl: string;
  tags: string[];
  picture?: boolean;
}

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

function page(url: string, title: string, nodes: Node[]): PageOutcome {
  return {
    ok: true,
    url,
    finalUrl: url,
    status: 200,
    title,
    links: [],
    axe: {
      violations: nodes.map((n) => ({
        id: n.rule,
        impact: n.impact,
        help: n.help,
        helpUrl: n.helpUrl,
        description: n.help,
        tags: n.tags,
        nodes: [{ target: [n.selector], html: n.html, failureSummary: n.message, impact: n.impact }],
      })),
      incomplete: [],
    },
    screenshots: nodes
      .filter((n) => n.picture)
      .map((n) => ({ rule: n.rule, selector: n.selector, png: PNG, width: 40, height: 20 })),
  } as unknown as PageOutcome;
}

const runOf = (pages: PageOutcome[]): ScanRun => ({
  pages,
  engine: { name: 'axe-core', version: '4.14.1' },
  browser: '/usr/bin/chromium',
  scope: 'full',
  notScanned: 0,
});

const node = (rule: string, selector: string, impact = 'critical'): Node => ({
  rule,
  impact,
  selector,
  html: `<${selector}>`,
  message: `Fix any of the following:\n  ${rule} is broken here`,
  help: `${rule} must be right`,
  helpUrl: `https://dequeuniversity.com/rules/axe/4.14/${rule}`,
  tags: ['wcag2a', 'wcag111'],
});

const NOW = new Date('2026-05-01T12:00:00Z');
const settings = { failOnCritical: null, failOnSerious: null, maxNewIssues: null, ignores: [] };

/** The parsed document's elements, in order, with their attributes. */
interface El {
  tag: string;
  attrs: Record<string, string>;
  text: string;
  children: El[];
}
interface P5 {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: P5[];
  content?: P5;
}
function elementsOf(html: string): { all: El[]; texts: string[] } {
  const all: El[] = [];
  const texts: string[] = [];
  const walk = (n: P5, into: El[]): string => {
    if (n.nodeName === '#text') {
      texts.push(n.value ?? '');
      return n.value ?? '';
    }
    const kids: El[] = [];
    const text = (n.childNodes ?? []).map((c) => walk(c, kids)).join('');
    if (n.tagName) {
      const el = {
        tag: n.tagName,
        attrs: Object.fromEntries((n.attrs ?? []).map((a) => [a.name, a.value])),
        text,
        children: kids,
      };
      all.push(el);
      into.push(el);
    } else into.push(...kids);
    return text;
  };
  walk(parse(html), []);
  return { all, texts };
}

const byClass = (els: El[], cls: string) => els.filter((e) => (e.attrs.class ?? '').split(' ').includes(cls));
const sectionTitles = (els: El[]) => els.filter((e) => e.tag === 'h3').map((e) => e.text);

describe('the HTML report of a run', () => {
  const home = [
    node('image-alt', 'img.logo'),
    node('button-name', '#buy'),
    node('color-contrast', 'p.note', 'serious'),
  ];
  const run = runOf([page('http://127.0.0.1:8080/', 'Home', home)]);
  const findings = findingsOf(run.pages);

  test('against a baseline file: new, existing and fixed entries, counted by impact, with their reasons', () => {
    // The baseline had the picture and the contrast, and an entry the scan no longer finds.
    const gone = entryOf(
      findingsOf(runOf([page('http://127.0.0.1:8080/', 'Home', [node('label', 'input#q')])]).pages)[0],
    );
    const baseline = [entryOf(findings[0]), entryOf(findings[2]), { ...gone, reason: 'the search moves' }];
    const v = judgeLocally(findings, baseline, settings, NOW);
    const report = localReport(run, findings, v, {
      baselineFile: '.a11y-gate/baseline.json',
      ignores: [],
      recorded: false,
      now: NOW,
    });
    expect(report.items.map((i) => [i.status, i.rule])).toEqual([
      ['new', 'button-name'],
      ['existing', 'image-alt'],
      ['existing', 'color-contrast'],
      ['fixed', 'label'],
    ]);
    const { all } = elementsOf(renderHtmlReport(report));
    expect(sectionTitles(all)).toEqual([
      'Pages',
      'Filter the issues',
      'New issues (1)',
      'Existing issues (2)',
      'Fixed: in the baseline, no longer found (1)',
    ]);
    const verdict = all.find((e) => (e.attrs.class ?? '') === 'verdict')!;
    expect(verdict.text.replace(/\s+/g, ' ').trim()).toBe('failed Gate FAILED: 1 new issue');
    // The counts table: critical 1 new, 1 existing, 1 fixed; serious 1 existing.
    const rows = all.filter((e) => e.tag === 'tr').map((r) => r.children.map((c) => c.text.trim()));
    expect(rows).toContainEqual(['critical', '1', '1', '1', '0']);
    expect(rows).toContainEqual(['serious', '0', '1', '0', '0']);
    expect(rows).toContainEqual(['All', '1', '2', '1', '0']);
    const fixed = byClass(all, 'issue').at(-1)!;
    expect(fixed.text).toContain('the search moves');
    expect(fixed.text).toContain('input#q');
  });

  test('with no baseline file every violation is new; an ignored one is apart, with its reason', () => {
    const ignores = [{ selector: 'p.note', reason: 'the vendor fixes it' }];
    const v = judgeLocally(findings, null, { ...settings, ignores }, NOW);
    const report = localReport(run, findings, v, {
      baselineFile: '.a11y-gate/baseline.json',
      ignores,
      recorded: false,
      now: NOW,
    });
    expect(report.items.map((i) => i.status)).toEqual(['new', 'new', 'ignored']);
    expect(report.items[2].reason).toBe('the vendor fixes it');
    expect(report.decision.basis).toBe(
      'No baseline file yet (.a11y-gate/baseline.json): every issue counts as new.',
    );
    const { all } = elementsOf(renderHtmlReport(report));
    expect(sectionTitles(all)).toEqual(expect.arrayContaining(['New issues (2)', 'Ignored issues (1)']));
  });

  test("with the service: new by the deploy event's fingerprints, waived by its waivers, the rest existing", () => {
    const event = {
      passed: false,
      reasons: [
        { code: 'critical_issues', message: '1 new critical issue found; fail_on_critical allows none.' },
      ],
      baseline: {
        scan_id: 'scn_1',
        sha: 'a'.repeat(40),
        strategy: 'branch',
        reason: 'Compared with scan scn_1 of main.',
      },
      counts: {
        new: 1,
        existing: 1,
        fixed: 4,
        waived: 1,
        by_impact: byImpact({ critical: { new: 1, fixed: 4 }, serious: { waived: 1 } }),
      },
      new_issues: [{ fingerprint: fingerprintOf(findings[1]) }],
      new_issues_total: 3,
      waived_issues: [{ fingerprint: fingerprintOf(findings[2]) }],
    } as unknown as DeployEvent;
    const report = serviceReport(run, event, { detailsUrl: 'https://a11y.example/deploys/dep_1', now: NOW });
    expect(report.items.map((i) => [i.status, i.rule])).toEqual([
      ['new', 'button-name'],
      ['existing', 'image-alt'],
      ['ignored', 'color-contrast'],
    ]);
    expect(report.decision.notes).toEqual([
      'The deploy event lists 1 of the 3 new issues: the others show here as existing. The deploy event has them all.',
    ]);
    const { all } = elementsOf(renderHtmlReport(report));
    expect(sectionTitles(all)).toEqual(expect.arrayContaining(['Waived issues (1)']));
    const rows = all.filter((e) => e.tag === 'tr').map((r) => r.children.map((c) => c.text.trim()));
    expect(rows[0]).toEqual(['Impact', 'New', 'Existing', 'Fixed', 'Waived']);
    expect(rows).toContainEqual(['critical', '1', '0', '4', '0']);
    expect(all.find((e) => e.tag === 'a' && e.text === 'The deploy event in the service')?.attrs.href).toBe(
      'https://a11y.example/deploys/dep_1',
    );
  });

  test('stands alone: its one stylesheet is allowed by its hash, pictures are data: URIs, nothing else loads', () => {
    const pictured = runOf([
      page('http://127.0.0.1:8080/', 'Home', [{ ...node('image-alt', 'img'), picture: true }]),
    ]);
    const html = renderHtmlReport(unjudgedReport(pictured, 'No gate was asked.', NOW));
    const { all } = elementsOf(html);
    const style = all.filter((e) => e.tag === 'style');
    expect(style).toHaveLength(1);
    const hash = createHash('sha256').update(style[0].text).digest('base64');
    const csp = all.find((e) => e.attrs['http-equiv'] === 'Content-Security-Policy')!.attrs.content;
    expect(csp).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    expect(all.filter((e) => e.tag === 'script' || e.tag === 'link' || 'style' in e.attrs)).toEqual([]);
    const img = all.filter((e) => e.tag === 'img');
    expect(img.map((i) => i.attrs)).toEqual([
      {
        class: 'shot',
        src: `data:image/png;base64,${PNG.toString('base64')}`,
        alt: screenshotAlt('image-alt', 'img'),
        width: '40',
        height: '20',
      },
    ]);
    expect(sectionTitles(all)).toEqual(expect.arrayContaining(['Issues found (1)']));
  });
});

/** What a scanned page may say: markup, script ends, quotes, CDATA ends, bidi controls, entities. */
const HOSTILE = [
  '</script><script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "' onmouseover='alert(1)",
  ']]></style><style>*{display:none}</style>',
  '<!-- --><![CDATA[x]]>',
  '\u202Eevil\u202C \u2066isolate\u2069 \u200F',
  'עברית <b>bold</b>',
  '&amp; &lt;b&gt; &#x3C;',
  '{{constructor}} ${x} `x`',
];
/** A string as the report shows it whole: one line, no control characters, at most 100 characters. */
const tidy = (s: string) =>
  s
    .replace(/\p{Cc}/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100)
    .trim() || 'x';
const hostile = fc
  .tuple(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 20 }), fc.constantFrom(...HOSTILE))
  .map(([a, b, c]) => tidy(`${a}${b}${c}`.slice(0, 100)));

/** The document's shape: every element with its attribute names, `<bdi>` (the renderer's isolation) left out. */
function shape(els: El[]): string[] {
  return els.flatMap((e) =>
    e.tag === 'bdi'
      ? shape(e.children)
      : [`${e.tag}[${Object.keys(e.attrs).sort().join(',')}]`, ...shape(e.children)],
  );
}
function rootsOf(html: string): El[] {
  const { all } = elementsOf(html);
  return all.filter((e) => e.tag === 'html');
}

describe('untrusted text stays text', () => {
  const reportOf = (s: string[]) => {
    const n: Node = {
      rule: s[0],
      impact: 'critical',
      selector: s[1],
      html: s[2],
      message: `Fix any of the following:\n  ${s[3]}`,
      help: s[4],
      helpUrl: `javascript:${s[5]}`,
      tags: [s[6]],
      picture: true,
    };
    const run = runOf([page(`http://127.0.0.1:8080/${encodeURIComponent(s[7])}`, s[8], [n])]);
    const event = {
      passed: false,
      reasons: [{ code: 'critical_issues', message: s[9] }],
      baseline: { reason: s[10] },
      counts: { new: 1, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({ critical: 1 }) },
      new_issues: [{ fingerprint: fingerprintOf(findingsOf(run.pages)[0]) }],
      new_issues_total: 1,
      waived_issues: [],
    } as unknown as DeployEvent;
    return renderHtmlReport(serviceReport(run, event, { detailsUrl: null, now: NOW }));
  };
  const safe = Array.from({ length: 11 }, (_, i) => `safe${i}`);
  const expected = shape(rootsOf(reportOf(safe)));

  test('hostile strings in every field add no element or attribute, and read back verbatim', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 11, maxLength: 11 }), (s) => {
        const html = reportOf(s);
        const { all, texts } = elementsOf(html);
        expect(shape(rootsOf(html))).toEqual(expected);
        // The renderer's own <bdi> holds one value whole and nothing else.
        for (const bdi of all.filter((e) => e.tag === 'bdi')) {
          expect(bdi.attrs).toEqual({});
          expect(bdi.children).toEqual([]);
        }
        const text = (v: string) => texts.some((t) => t.includes(v));
        for (const i of [0, 1, 2, 3, 4, 8, 9, 10]) expect(text(s[i])).toBe(true);
        expect(text(`javascript:${s[5]}`)).toBe(true);
        expect(text(s[6])).toBe(true);
        expect(all.find((e) => e.tag === 'img')?.attrs.alt).toBe(screenshotAlt(s[0], s[1]));
        expect(all.some((e) => e.tag === 'a')).toBe(false);
        expect(all.filter((e) => e.tag === 'script')).toEqual([]);
        expect(all.flatMap((e) => Object.keys(e.attrs)).filter((a) => a.startsWith('on'))).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  test('an http(s) help URL is a link whose address is the URL as given, however it is quoted', () => {
    const url = 'https://dequeuniversity.com/rules/axe/4.14/x?a="><script>alert(1)</script>&b=\'';
    const run = runOf([page('http://127.0.0.1:8080/', 'Home', [{ ...node('x', 'p'), helpUrl: url }])]);
    const { all } = elementsOf(renderHtmlReport(unjudgedReport(run, 'No gate.', NOW)));
    const links = all.filter((e) => e.tag === 'a');
    expect(links.map((a) => [a.attrs.href, a.text])).toEqual([[url, 'How to fix x']]);
  });
});
