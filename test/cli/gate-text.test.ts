import { gateText } from '../../cli/gate-text.js';
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
