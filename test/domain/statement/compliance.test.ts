import { complianceOf, NON_INTERFERENCE } from '../../../api/domain/statement/compliance.js';
import type { Conformance } from '../../../api/domain/vpat/editions.js';
import type { VpatReport } from '../../../api/domain/vpat/report.js';
import { sampleReport } from '../../../scripts/statement-sample.js';

/** The sample report with some rows answered otherwise (and, for `clean`, no violation left in the scan). */
function answered(
  report: VpatReport,
  levels: Record<string, Conformance>,
  { clean = false }: { clean?: boolean } = {},
): VpatReport {
  return {
    ...report,
    criteria: report.criteria.map((c) => {
      const failing = c.conformance === 'partially-supports' || c.conformance === 'does-not-support';
      const conformance = levels[c.id] ?? (clean && failing ? 'supports' : c.conformance);
      return { ...c, conformance, evidence: clean ? { ...c.evidence, issues: 0 } : c.evidence };
    }),
  };
}

describe('the compliance status of a statement', () => {
  const sample = sampleReport();

  test('criteria that partially support make it partially compliant, naming them', () => {
    const c = complianceOf(sample);
    expect(c.status).toBe('partially');
    expect(c.reasons).toEqual([
      '3 criteria do not fully support: 0 Does Not Support, 3 Partially Supports (1.1.1 Non-text Content, 1.2.2 Captions (Prerecorded) and 1.4.3 Contrast (Minimum)).',
    ]);
    expect(c.counted).toEqual({
      supports: 52,
      'partially-supports': 3,
      'does-not-support': 0,
      'not-applicable': 1,
      'not-evaluated': 0,
    });
    expect(c.principles.map((p) => [p.name, p.failing])).toEqual([
      ['Perceivable', ['1.1.1', '1.2.2', '1.4.3']],
      ['Operable', []],
      ['Understandable', []],
      ['Robust', []],
    ]);
  });

  test('fully compliant only when every applicable criterion supports and the scan found no violation of them', () => {
    expect(complianceOf(answered(sample, {}, { clean: true }))).toMatchObject({
      status: 'fully',
      reasons: [
        'Every one of the 55 applicable criteria Supports (1 Not Applicable), and the scan found no violation of them.',
      ],
    });
    // A person answered Supports, but the scan's violations of it are still there: never "fully".
    const violated = answered(sample, { '1.1.1': 'supports', '1.2.2': 'supports', '1.4.3': 'supports' });
    expect(complianceOf(violated)).toMatchObject({ status: 'partially' });
    expect(complianceOf(violated).reasons.join(' ')).toContain(
      'The scan found violations of 1.1.1 Non-text Content and 1.4.3 Contrast (Minimum)',
    );
    // Not Evaluated below AAA stands in the way too.
    const unevaluated = answered(sample, { '2.4.7': 'not-evaluated' }, { clean: true });
    expect(complianceOf(unevaluated)).toMatchObject({
      status: 'partially',
      reasons: ['1 criterion was not evaluated.'],
    });
  });

  test('Level AAA rows do not count; a WCAG 2.0 or Level A report cannot be fully compliant with EN 301 549', () => {
    const aaa = answered(sampleReport({ level: 'AAA' }), {}, { clean: true });
    expect(aaa.criteria.some((c) => c.level === 'AAA' && c.conformance === 'not-evaluated')).toBe(true);
    expect(complianceOf(aaa).status).toBe('fully');
    for (const options of [{ wcagVersion: '2.0' as const }, { level: 'A' as const }]) {
      const c = complianceOf(answered(sampleReport(options), {}, { clean: true }));
      expect(c.status).toBe('partially');
      expect(c.reasons.at(-1)).toMatch(
        /EN 301 549 V3\.2\.1 asks for the Level A and AA criteria of WCAG 2\.1\.$/,
      );
    }
  });

  test('not compliant when a non-interference criterion does not support, or most applicable criteria do not', () => {
    const trap = complianceOf(answered(sample, { '2.1.2': 'does-not-support' }));
    expect(trap.status).toBe('not');
    expect(trap.reasons[0]).toMatch(
      /^2\.1\.2 No Keyboard Trap: Does Not Support\. A failure of a non-interference/,
    );
    // Partially Supports on a non-interference criterion is a partial failure, not "not compliant".
    expect(complianceOf(answered(sample, { '2.1.2': 'partially-supports' })).status).toBe('partially');

    const ids = sample.criteria
      .filter(
        (c) =>
          (c.level === 'A' || c.level === 'AA') &&
          c.conformance !== 'not-applicable' &&
          !(NON_INTERFERENCE as readonly string[]).includes(c.id),
      )
      .map((c) => c.id);
    const most = Object.fromEntries(ids.slice(0, 28).map((id) => [id, 'does-not-support' as const]));
    expect(complianceOf(answered(sample, most))).toMatchObject({
      status: 'not',
      reasons: ['28 of the 55 applicable criteria Do Not Support: more than half.'],
    });
    const half = Object.fromEntries(ids.slice(0, 27).map((id) => [id, 'does-not-support' as const]));
    expect(complianceOf(answered(sample, half)).status).toBe('partially');
  });
});
