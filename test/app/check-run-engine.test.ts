import { type GateIssue, type GateResult } from '../../core/gate/deploy-event.js';
import { GITHUB_TEXT_LIMIT } from '../../core/gate/report.js';
import { engineChangedList } from '../../core/gate/report-issues.js';
import { buildCheckRun } from '../../app/check-run-payload.js';
import { gateIssue, gateResultOf } from '../helpers/gate-result.js';

// A decision on an axe-core upgrade, written out by hand as the gate records it (docs/gate.md).
const tab = (n: number, extra: Partial<GateIssue> = {}): GateIssue =>
  gateIssue({
    rule: 'aria-tab-name',
    impact: 'serious',
    message: `Tab ${n} has no accessible name`,
    selector: `#tab-${n}`,
    page_url: 'https://shop.example/',
    wcag: ['4.1.2'],
    engine_change: true,
    ...extra,
  });
const zero = { new: 0, existing: 0, fixed: 0, waived: 0 };

function upgrade(
  policy: 'warn' | 'fail',
  labelled: GateIssue[],
  extra: Partial<GateResult> = {},
): GateResult {
  return gateResultOf(
    {
      id: 'dep_engine',
      siteId: 'shop-web',
      sha: '3f786850e387550fdab836ed7e6dc881de23001b',
      passed: policy === 'warn',
      reasons:
        policy === 'warn' ? [] : [{ code: 'serious_issues', message: '2 new serious issues found; …' }],
      scan_id: 'scn_head',
      baseline: { scan_id: 'scn_base', sha: 'a1b2c3d4e5f6', strategy: 'base_branch', reason: '' },
      counts: {
        ...zero,
        existing: 3,
        new: policy === 'fail' ? 2 : 0,
        engine_changed: 3,
        by_impact: {
          critical: { ...zero, engine_changed: 0 },
          serious: { ...zero, engine_changed: 2 },
          moderate: { ...zero, engine_changed: 1 },
          minor: { ...zero, engine_changed: 0 },
        },
      },
      thresholds: [],
      new_issues: policy === 'fail' ? labelled : [],
      engine_change: {
        head: { name: 'axe-core', version: '4.14.1' },
        baseline: { name: 'axe-core', version: '4.10.3' },
        engine_upgrade: policy,
        appeared: 2,
        disappeared: 1,
      },
      engine_changed_issues: labelled,
    },
    extra,
  );
}

describe('check run of an engine upgrade', () => {
  test('warn: success, the change in its own summary section, the labelled issues apart from the new ones', () => {
    const run = buildCheckRun(upgrade('warn', [tab(1), tab(2)]), { detailsUrl: 'https://gate.example/d' });
    expect(run.conclusion).toBe('success');
    expect(run.output.title).toBe('No new accessibility issues');
    expect(run.output.summary).toContain(
      '#### Engine upgrade\n\nThe engine changed from axe-core 4.10.3 (baseline) to axe-core 4.14.1 (this ' +
        "commit): 3 issues differ (2 only in this commit's scan, 1 only in the baseline's); they are counted " +
        'apart and fail nothing (engine_upgrade: warn).',
    );
    // The impact table counts the issues that differ per impact, in a column of their own.
    expect(run.output.summary).toContain(
      '| Impact | New | Existing | Fixed | Waived | Engine changed |\n|---|---:|---:|---:|---:|---:|\n' +
        '| critical | 0 | 0 | 0 | 0 | 0 |\n| serious | 0 | 0 | 0 | 0 | 2 |\n| moderate | 0 | 0 | 0 | 0 | 1 |\n' +
        '| minor | 0 | 0 | 0 | 0 | 0 |\n| **Total** | **0** | **3** | **0** | **0** | **3** |',
    );
    expect(run.output.text).toMatch(/^No new accessibility issues\.\n/);
    expect(run.output.text).toContain(
      "#### Issues that differ because the engine changed (2 in this commit's scan)",
    );
    expect(run.output.text).toContain(
      '- Tab 1 has no accessible name (aria-tab-name) · serious · page `https://shop.example/`\n',
    );
    expect(run.annotations).toEqual([]);
  });

  test('fail: failure, the issues judged as new and each marked as an engine change', () => {
    const run = buildCheckRun(upgrade('fail', [tab(1), tab(2)]), { detailsUrl: 'https://gate.example/d' });
    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toContain('(engine_upgrade: fail)');
    expect(run.output.text).toContain('#### New issues (2)');
    expect(run.output.text.match(/· engine change/g)).toHaveLength(2);
  });

  test('the list apart is cut with a note when the room left is short', () => {
    const many = Array.from({ length: 100 }, (_, i) => tab(i));
    const all = engineChangedList(upgrade('warn', many), GITHUB_TEXT_LIMIT);
    expect(all.split('\n').filter((l) => l.startsWith('- Tab '))).toHaveLength(100);
    const cut = engineChangedList(upgrade('warn', many), 2_000);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(2_000);
    expect(cut).toMatch(/_More are listed in the deploy event\._\n$/);
    expect(engineChangedList(upgrade('warn', many), 50)).toBe('');
  });
});
