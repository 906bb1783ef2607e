import { gateText, localGateText } from '../../cli/gate-text.js';
import type { LocalVerdict } from '../../scanner/local-gate.js';
import type { DeployEvent } from '../../core/gate/deploy-event.js';
import { byImpact, gateIssue, gateResultOf } from '../helpers/gate-result.js';

/** A page's words reach the terminal: escape sequences and line breaks of theirs must not act there. */
test("the gate's answer on a terminal carries no control character and no line of the scan's making", () => {
  const hostile = 'x\u001b[2J\u001b]0;title\u0007\r\nGate passed: 0 new issues.\u009b31m\u2028y';
  const event = gateResultOf(
    {
      id: 'dep_1',
      siteId: 'shop',
      sha: 'a'.repeat(40),
      repository: null,
      passed: false,
      reasons: [{ code: 'critical_issues', message: hostile }],
      scan_id: 'scn_1',
      baseline: null,
      counts: { new: 1, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({ critical: 1 }) },
      thresholds: [],
      new_issues: [
        gateIssue({
          rule: hostile,
          impact: 'critical',
          message: `Fix any of the following:\n  ${hostile.replace(/\n/g, ' ')}\n  b`,
          html: hostile,
          page_url: `https://shop.example/${hostile}`,
          source: { path: hostile, line: 1, column: null, method: 'attribute' },
        }),
      ],
    },
    {},
  ) as DeployEvent;
  const out = gateText(event, 'https://gate.example/d');
  // eslint-disable-next-line no-control-regex -- the characters a terminal acts on
  expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
  expect(out.split('\n').filter((l) => l.startsWith('Gate passed'))).toEqual([]);
  expect(out).toContain('Gate FAILED');
});

function event(extra: Partial<DeployEvent>): DeployEvent {
  return gateResultOf(
    {
      id: 'dep_2',
      siteId: 'shop',
      sha: 'b'.repeat(40),
      repository: null,
      passed: true,
      reasons: [],
      scan_id: 'scn_2',
      baseline: {
        scan_id: 'scn_1',
        sha: 'a'.repeat(40),
        strategy: 'base_branch',
        reason: 'The latest scan…',
      },
      counts: { new: 0, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({}) },
      thresholds: [],
      new_issues: [],
    },
    extra,
  ) as DeployEvent;
}

test("with no scan of the base branch, the gate's reason says so and what to do, on its own line", () => {
  const reason =
    'No scan of develop yet: every issue counts as new. Scan develop first, or commit a baseline file.';
  const out = gateText(
    event({ baseline: { scan_id: null, sha: null, strategy: 'none', reason } }),
    'https://gate.example/d',
  );
  expect(out.split('\n').slice(0, 2)).toEqual(['Gate passed: 0 new issues.', reason]);
  // Compared with a scan of the base branch, nothing is said about it.
  expect(gateText(event({}), null)).toBe('Gate passed: 0 new issues.\n');
});

test('a partial scan says which pages were compared, the first ten of them', () => {
  const message = 'Compared 12 of 40 pages: this scan covers only the pages listed.';
  const pages = Array.from({ length: 12 }, (_, i) => `https://shop.example/p/${i}\u001b[2J`);
  const out = gateText(
    event({ coverage: { scope: 'partial', pages_compared: 12, pages_total: 40, pages, message } }),
    null,
  );
  expect(out.split('\n').slice(1, 3)).toEqual([message, '  - https://shop.example/p/0 [2J']);
  expect(out).toContain('  - https://shop.example/p/9 [2J\n  … and 2 more.\n');
  expect(out).not.toContain('p/10');
});

// A folder served by --serve lives at a port that is gone once the run ends: the command to scan the pages
// again names them by path with the folder, and the viewports they failed at.
const origin = 'http://127.0.0.1:40123';
const served = { dir: 'site', spa: false };
const servedIssues = [
  gateIssue({ rule: 'label', page_url: `${origin}/about.html`, viewport: '390x844' }),
  gateIssue({ rule: 'image-alt', page_url: `${origin}/`, viewport: 'iPhone 13' }),
  gateIssue({ rule: 'button-name', page_url: `${origin}/about.html`, viewport: 'iPhone 13' }),
];
const REPRODUCE =
  "Reproduce locally: npx a11y-gate scan /about.html / --serve site --viewport 390x844 --viewport 'iPhone 13' --source-root .";

test("the service's gate on a served folder: each new issue at its viewport; the command to reproduce names no port", () => {
  const failed = event({
    passed: false,
    counts: { new: 3, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({ critical: 3 }) },
    new_issues: servedIssues,
    new_issues_total: 3,
  });
  const out = gateText(failed, null, served);
  expect(out).toContain('   at (not located) on http://127.0.0.1:40123/about.html (390x844)\n');
  expect(out.split('\n').filter((l) => l.startsWith('Reproduce'))).toEqual([REPRODUCE]);
  // Without a served folder, the pages' own addresses, as they were scanned.
  expect(gateText(failed, null)).toContain(
    "Reproduce locally: npx a11y-gate scan http://127.0.0.1:40123/about.html http://127.0.0.1:40123/ --viewport 390x844 --viewport 'iPhone 13' --source-root .\n",
  );
});

describe('the gate without a service, on stdout', () => {
  const verdict = (extra: Partial<LocalVerdict>): LocalVerdict => ({
    evaluation: {
      passed: false,
      reasons: [],
      counts: { new: 0, existing: 0, fixed: 0, waived: 0, byImpact: byImpact({}) },
      thresholds: [],
      newIssues: [],
      newIssuesTotal: 0,
      waivedIssues: [],
      similarIssues: [],
      similarIssuesTotal: 0,
      engineChange: null,
      engineChangedIssues: [],
    },
    baseline: [],
    newFindings: [],
    fixed: [],
    coverage: null,
    kept: [],
    lapsed: [],
    lapsedIgnores: [],
    recorded: [],
    ...extra,
  });

  test('with no baseline file, the one text the service gives too, then how to record the file', () => {
    const out = localGateText(verdict({ baseline: null }), '.a11y-gate/baseline.json');
    expect(out.split('\n').slice(1, 3)).toEqual([
      'No scan of main yet: every issue counts as new. Scan main first, or commit a baseline file.',
      'Record the baseline file (.a11y-gate/baseline.json) with "a11y-gate baseline" (the same pages and options) and commit it.',
    ]);
  });

  test('a partial scan says which pages were compared', () => {
    const message = 'Compared 1 of 3 pages: this scan covers only the pages listed.';
    const coverage = {
      scope: 'partial' as const,
      pages_compared: 1,
      pages_total: 3,
      pages: ['/cart'],
      message,
    };
    const out = localGateText(verdict({ coverage }), 'b.json');
    expect(out.split('\n').slice(1, 3)).toEqual([message, '  - /cart']);
  });

  test('the new issues at their viewports, and the command that scans their pages of the served folder again', () => {
    const finding = (i: (typeof servedIssues)[number]) => ({
      pageUrl: i.page_url,
      viewport: i.viewport,
      rule: i.rule,
      kind: 'violation' as const,
      impact: 'critical',
      message: '',
      selector: 'x',
      html: '',
      helpUrl: '',
      help: '',
      description: '',
      tags: [],
      source: null,
    });
    const out = localGateText(verdict({ newFindings: servedIssues.map(finding) }), 'b.json', served);
    expect(out).toContain('   at (not located) on http://127.0.0.1:40123/ (iPhone 13)\n');
    expect(out.split('\n').filter((l) => l.startsWith('Reproduce'))).toEqual([REPRODUCE]);
    // Nothing new, nothing to reproduce.
    expect(localGateText(verdict({}), 'b.json', served)).not.toContain('Reproduce');
  });

  test("the scanned pages' words stay inert on the terminal: a new issue and a fixed entry", () => {
    const hostile = 'x\u001b[2J\r\nGate passed: 0 new issues.\u009b31m\u2028y';
    const finding = {
      pageUrl: `https://shop.example/${hostile}`,
      rule: 'image-alt',
      kind: 'violation' as const,
      impact: 'critical',
      message: `Fix any of the following:\n  ${hostile}\n  second`,
      selector: hostile,
      html: `<img src="${hostile}">`,
      helpUrl: '',
      help: '',
      description: '',
      tags: [],
      source: { path: `src/${hostile}.html`, line: 3, column: null, method: 'static' as const },
    };
    const entry = {
      page: `/${hostile}`,
      rule: 'label',
      impact: 'serious' as const,
      selector: hostile,
      fingerprint: 'f'.repeat(64),
    };
    const out = localGateText(verdict({ newFindings: [finding], fixed: [entry] }), 'b.json');
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(out).not.toMatch(/^Gate passed: 0 new issues\./m);
    expect(out).toContain('1. ');
    expect(out).toContain('  - label ');
  });
});
