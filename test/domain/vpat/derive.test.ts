import { buildRuleCoverage } from '../../../api/domain/vpat/rule-coverage.js';
import { deriveReport } from '../../../api/domain/vpat/derive.js';
import { type EvidenceGroup, type ScanEvidence } from '../../../api/domain/vpat/evidence-tally.js';
import { editionCatalog } from '../../../api/domain/vpat/editions.js';
import type { OverrideRecord } from '../../../api/domain/vpat/report.js';

const coverage = buildRuleCoverage([
  {
    ruleId: 'color-contrast',
    tags: ['wcag2aa', 'wcag143'],
    helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/color-contrast?application=axeAPI',
  },
  {
    ruleId: 'image-alt',
    tags: ['wcag2a', 'wcag111'],
    helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/image-alt',
  },
  { ruleId: 'role-img-alt', tags: ['wcag2a', 'wcag111'] },
  { ruleId: 'html-has-lang', tags: ['wcag2a', 'wcag311'] },
  { ruleId: 'link-name', tags: ['wcag2a', 'wcag244', 'wcag412'] },
]);

const pages = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ index: i, url: `https://shop.test/p${i}` }));

function violation(
  rule: string,
  page: number,
  count = 1,
  wcag: string | null = null,
  extra: Partial<EvidenceGroup> = {},
): EvidenceGroup {
  return { rule, kind: 'violation', wcag, page, count, helpUrl: null, ...extra };
}

function derive(
  evidence: Partial<ScanEvidence>,
  overrides: OverrideRecord[] = [],
  edition: 'wcag' | '508' = 'wcag',
  level: 'A' | 'AA' | 'AAA' = 'AA',
) {
  const full: ScanEvidence = { pages: pages(4), rulesRun: null, groups: [], ...evidence };
  const d = deriveReport({
    catalog: editionCatalog(edition, '2.2', level),
    coverage,
    evidence: full,
    overrides,
  });
  return { ...d, row: (id: string) => d.criteria.find((c) => c.id === id)! };
}

const override = (
  criterion: string,
  conformance: OverrideRecord['conformance'],
  extra: Partial<OverrideRecord> = {},
): OverrideRecord => ({
  criterion,
  conformance,
  remarks: 'Checked by hand with NVDA and a keyboard.',
  author: 'Ada Reviewer',
  author_key_id: 'key_x',
  created_at: '2026-11-01T10:00:00.000Z',
  inherited_from: null,
  ...extra,
});

describe('VPAT derivation', () => {
  test('violations on more than half of the pages → does-not-support, with counts, pages, rules, help link', () => {
    const d = derive({
      groups: [
        violation('color-contrast', 0, 5, '1.4.3'),
        violation('color-contrast', 1, 2, '1.4.3'),
        violation('color-contrast', 2, 1, '1.4.3'),
      ],
    });
    const c = d.row('1.4.3');
    expect(c.conformance).toBe('does-not-support');
    expect(c.source).toBe('evidence');
    expect(c.basis).toBe('violations');
    expect(c.evidence).toMatchObject({
      rules: ['color-contrast'],
      issues: 8,
      pages_affected: 3,
      pages_total: 4,
    });
    expect(c.remarks).toContain('8 issues on 3 of 4 pages');
    expect(c.remarks).toContain('color-contrast');
    // Pages by their public paths: the report is read by customers, not by whoever ran the scan.
    expect(c.remarks).toContain('Affected pages: /p0, /p1 and /p2.');
    expect(c.remarks).toContain('https://dequeuniversity.com/rules/axe/4.14/color-contrast');
    expect(c.remarks).not.toContain('application=axeAPI');
  });

  test('violations on exactly half, or fewer, of the pages → partially-supports', () => {
    const half = derive({
      groups: [violation('color-contrast', 0, 1, '1.4.3'), violation('color-contrast', 3, 1, '1.4.3')],
    });
    expect(half.row('1.4.3').conformance).toBe('partially-supports');
    expect(half.row('1.4.3').remarks).toContain('2 issues on 2 of 4 pages');
    const one = derive({ groups: [violation('color-contrast', 2, 1, '1.4.3')] });
    expect(one.row('1.4.3').conformance).toBe('partially-supports');
    expect(one.row('1.4.3').remarks).toContain('1 issue on 1 of 4 pages');
  });

  test('waived violations still count (a waiver is not conformance), and the remark says how many', () => {
    const d = derive({
      waiversKnown: true,
      groups: [0, 1, 2].map((p) => violation('image-alt', p, 2, '1.1.1', { waived: 2 })),
    });
    const c = d.row('1.1.1');
    expect(c.conformance).toBe('does-not-support');
    expect(c.evidence.waived).toBe(6);
    expect(c.remarks).toContain('6 issues of these are waived and still counted');
    expect(derive({ groups: [violation('image-alt', 0)] }).row('1.1.1').evidence.waived).toBeNull();
  });

  test('covering rules ran (rules_run) and found nothing → not evaluated, rules-passed, waiting for a person', () => {
    const d = derive({ rulesRun: ['color-contrast', 'image-alt'] });
    const c = d.row('1.4.3');
    expect(c.conformance).toBe('not-evaluated');
    expect(c.basis).toBe('rules-passed');
    expect(c.needs_review).toBe(true);
    expect(c.remarks).toMatch(
      /^Not evaluated: No automated failures: rule color-contrast ran on 4 of 4 pages/,
    );
    expect(c.evidence.rules).toEqual(['color-contrast']);
    // Automated evidence never grants supports, in any row.
    expect(d.criteria.filter((r) => r.conformance === 'supports')).toEqual([]);
    // One of two covering rules ran: still evidence, naming only the rule that ran.
    expect(d.row('1.1.1').basis).toBe('rules-passed');
    expect(d.row('1.1.1').evidence.rules).toEqual(['image-alt']);
  });

  describe('rules run per page', () => {
    // Pages 0-1: axe, each with its own list; pages 2-3: native issues.
    const withLists = (native: readonly string[] | null) =>
      pages(4).map((p) => ({
        ...p,
        rulesRun: p.index < 2 ? ['color-contrast', 'image-alt', 'html-has-lang'] : native,
      }));

    test('a covering rule that ran on some pages only is never supports: not-evaluated, saying on how many', () => {
      const d = derive({
        pages: withLists(null),
        rulesRun: ['color-contrast', 'image-alt', 'html-has-lang'],
      });
      const c = d.row('1.4.3');
      expect(c.conformance).toBe('not-evaluated');
      expect(c.basis).toBe('rules-not-run');
      expect(c.needs_review).toBe(true);
      expect(c.remarks).toContain('ran on only 2 of 4 pages');
      expect(c.remarks).toContain('color-contrast on 2 of 4');
      // The untested pages by their public paths, not by the host the scan ran against.
      expect(c.remarks).toContain('(/p2 and /p3;');
      expect(c.remarks).not.toContain('shop.test');
      expect(c.evidence.rules).toEqual(['color-contrast']);
      expect(d.summary.undecided).toBeGreaterThan(0);
    });

    test('a native page whose list names the rule counts; one that names other rules does not', () => {
      const covered = derive({ pages: withLists(['color-contrast']), rulesRun: null });
      expect(covered.row('1.4.3').basis).toBe('rules-passed');
      expect(covered.row('1.4.3').remarks).toContain('ran on 4 of 4 pages');
      expect(covered.row('1.1.1').conformance).toBe('not-evaluated');
      expect(covered.row('1.1.1').remarks).toContain('image-alt on 2 of 4');
    });

    test('a rule that reported a result on a page ran there, whatever the page listed', () => {
      // link-name's result on native page 2 is attributed to 2.4.4 only: for 4.1.2 it ran (and did not
      // find nothing), not "did not run".
      const d = derive({
        pages: withLists([]),
        rulesRun: null,
        groups: [{ rule: 'link-name', kind: 'incomplete', wcag: '2.4.4', page: 2, count: 1, helpUrl: null }],
      });
      expect(d.row('4.1.2')).toMatchObject({ conformance: 'not-evaluated', basis: 'rule-results-elsewhere' });
      expect(d.row('1.4.3').remarks).toContain('ran on only 2 of 4 pages');
    });

    test('every page tested by some covering rule is enough; the remark says which rule ran where', () => {
      const split = pages(4).map((p) => ({ ...p, rulesRun: p.index < 2 ? ['image-alt'] : ['role-img-alt'] }));
      const c = derive({ pages: split, rulesRun: null }).row('1.1.1');
      expect(c.basis).toBe('rules-passed');
      expect(c.remarks).toContain('every one of the 4 pages was tested by at least one');
      expect(c.remarks).toContain('image-alt on 2 of 4, role-img-alt on 2 of 4');
    });
  });

  test('covering rules did not run → not-evaluated, never supports', () => {
    const d = derive({ rulesRun: ['image-alt'] });
    expect(d.row('1.4.3').conformance).toBe('not-evaluated');
    expect(d.row('1.4.3').basis).toBe('rules-not-run');
    expect(d.row('1.4.3').remarks).toContain('color-contrast');
    expect(d.row('1.4.3').remarks).toContain('did not run');
  });

  test('rules_run unknown: a rule counts as run only if it reported a result in this scan', () => {
    // link-name reported an incomplete result, which the scan attributes to 2.4.4 only. It also tests 4.1.2,
    // but a rule with an undecided result did not "find nothing" there: not evaluated, never supports.
    const d = derive({
      rulesRun: null,
      groups: [{ rule: 'link-name', kind: 'incomplete', wcag: '2.4.4', page: 0, count: 1, helpUrl: null }],
    });
    expect(d.row('4.1.2')).toMatchObject({
      conformance: 'not-evaluated',
      basis: 'rule-results-elsewhere',
      needs_review: true,
    });
    expect(d.row('1.4.3').conformance).toBe('not-evaluated');
    expect(d.row('1.4.3').remarks).toContain('not known to have run');
  });

  test('a rule that failed is never "ran and found nothing" for another criterion it tests', () => {
    // A native scan names 2.4.4 only for its link-name violations; axe-core says link-name tests 4.1.2 too.
    const d = derive({
      rulesRun: ['link-name', 'color-contrast'],
      groups: [violation('link-name', 0, 3, '2.4.4')],
    });
    expect(d.row('2.4.4').conformance).toBe('partially-supports');
    const c = d.row('4.1.2');
    expect(c).toMatchObject({
      conformance: 'not-evaluated',
      source: 'evidence',
      basis: 'rule-results-elsewhere',
      needs_review: true,
    });
    expect(c.evidence.rules).toEqual(['link-name']);
    expect(c.remarks).toContain('link-name');
    expect(c.remarks).toContain('3 violations');
    expect(c.remarks).toContain('2.4.4');
    expect(c.remarks).not.toContain('found no violations');
    // A rule without results is still evidence for its criterion (for a person to confirm).
    expect(d.row('1.4.3').basis).toBe('rules-passed');
  });

  test('rules-passed names the covering rules that did not run', () => {
    const d = derive({ rulesRun: ['image-alt'] });
    expect(d.row('1.1.1').basis).toBe('rules-passed');
    expect(d.row('1.1.1').remarks).toContain('did not run: role-img-alt');
    expect(derive({ rulesRun: ['color-contrast'] }).row('1.4.3').remarks).not.toContain('did not run');
  });

  test('only incomplete results → not-evaluated, marked as needing human review', () => {
    const d = derive({
      rulesRun: ['color-contrast'],
      groups: [
        { rule: 'color-contrast', kind: 'incomplete', wcag: '1.4.3', page: 1, count: 3, helpUrl: null },
      ],
    });
    const c = d.row('1.4.3');
    expect(c.conformance).toBe('not-evaluated');
    expect(c.basis).toBe('incomplete');
    expect(c.needs_review).toBe(true);
    expect(c.evidence.incomplete).toBe(3);
    expect(c.remarks).toContain('needs human review');
    expect(c.remarks).toContain('3 results on 1 of 4 pages');
  });

  test('violations decide over incomplete results on the same criterion', () => {
    const d = derive({
      groups: [
        violation('color-contrast', 0, 1, '1.4.3'),
        { rule: 'color-contrast', kind: 'incomplete', wcag: '1.4.3', page: 1, count: 2, helpUrl: null },
      ],
    });
    expect(d.row('1.4.3').conformance).toBe('partially-supports');
    expect(d.row('1.4.3').remarks).toContain('2 more results need manual review');
  });

  test('no rule tests the criterion → not-evaluated', () => {
    const d = derive({ rulesRun: ['color-contrast', 'image-alt'] });
    expect(d.row('1.3.3').conformance).toBe('not-evaluated');
    expect(d.row('1.3.3').basis).toBe('no-coverage');
    expect(d.row('1.3.3').remarks).toContain('no automated axe-core rule tests this criterion');
  });

  test('an issue without criteria counts for the criteria its rule tests', () => {
    const d = derive({ groups: [violation('link-name', 0, 1, null), violation('link-name', 1, 1, '')] });
    expect(d.row('2.4.4').conformance).toBe('partially-supports');
    expect(d.row('4.1.2').conformance).toBe('partially-supports');
  });

  test('an issue names several criteria: each gets it', () => {
    const d = derive({ groups: [violation('custom-rule', 0, 1, '1.4.3,1.1.1')] });
    expect(d.row('1.4.3').evidence.issues).toBe(1);
    expect(d.row('1.1.1').evidence.rules).toEqual(['custom-rule']);
  });

  test('a scan without pages evaluates nothing', () => {
    const d = derive({ pages: [], rulesRun: ['color-contrast'] });
    expect(d.row('1.4.3').conformance).toBe('not-evaluated');
    expect(d.row('1.4.3').basis).toBe('no-pages');
  });

  test('rows stay undecided until a person answers every criterion the scan cannot', () => {
    expect(derive({ rulesRun: ['color-contrast'] }).summary.undecided).toBeGreaterThan(0);
    const catalog = editionCatalog('wcag', '2.2', 'AA');
    const unanswered = deriveReport({
      catalog,
      coverage,
      evidence: { pages: pages(2), rulesRun: [], groups: [] },
      overrides: [],
    })
      .criteria.filter((c) => c.conformance === 'not-evaluated')
      .map((c) => override(c.id, 'supports'));
    const all = derive({ pages: pages(2), rulesRun: [] }, unanswered);
    expect(all.summary.undecided).toBe(0);
    expect(all.summary.by_conformance['not-evaluated']).toBe(0);
    // AAA criteria may stay not evaluated, when a person says so.
    const aaaRows = deriveReport({
      catalog: editionCatalog('wcag', '2.2', 'AAA'),
      coverage,
      evidence: { pages: pages(2), rulesRun: [], groups: [] },
      overrides: [],
    }).criteria.filter((c) => c.level === 'AAA');
    const aaa = derive(
      { pages: pages(2), rulesRun: [] },
      [...unanswered, ...aaaRows.map((c) => override(c.id, 'not-evaluated'))],
      'wcag',
      'AAA',
    );
    expect(aaa.row('1.4.6').conformance).toBe('not-evaluated');
    expect(aaa.summary.undecided).toBe(0);
  });

  test('summary counts every row by conformance', () => {
    const d = derive({ rulesRun: ['color-contrast'] });
    const total = Object.values(d.summary.by_conformance).reduce((a, b) => a + b, 0);
    expect(total).toBe(d.criteria.length);
    expect(d.criteria).toHaveLength(56);
  });

  test('an override wins, keeps its author and time, and is not stale when the evidence agrees', () => {
    const d = derive({ rulesRun: ['color-contrast'] }, [
      override('1.3.3', 'supports'),
      override('1.4.3', 'supports'),
    ]);
    const c = d.row('1.3.3');
    expect(c).toMatchObject({
      conformance: 'supports',
      source: 'override',
      basis: 'override',
      needs_review: false,
    });
    expect(c.override).toMatchObject({
      author: 'Ada Reviewer',
      created_at: '2026-11-01T10:00:00.000Z',
      stale: false,
      stale_reason: null,
    });
    expect(c.remarks).toBe('Checked by hand with NVDA and a keyboard.');
    expect(d.overrides).toHaveLength(2);
    expect(d.summary.stale_overrides).toBe(0);
  });

  test('an override to supports (or not-applicable) on a criterion with violations is stale, with the reason', () => {
    const d = derive(
      { groups: [violation('color-contrast', 0, 3, '1.4.3'), violation('image-alt', 1, 1, '1.1.1')] },
      [
        override('1.4.3', 'supports'),
        override('1.1.1', 'not-applicable'),
        override('1.4.3'.replace('3', '4'), 'supports'),
      ],
    );
    const c = d.row('1.4.3');
    expect(c.conformance).toBe('supports');
    expect(c.override?.stale).toBe(true);
    expect(c.override?.stale_reason).toContain('3 violations on 1 of 4 pages');
    expect(c.remarks).toContain('Stale override');
    expect(c.needs_review).toBe(true);
    expect(d.row('1.1.1').override?.stale).toBe(true);
    expect(d.row('1.4.4').override?.stale).toBe(false);
    expect(d.summary.stale_overrides).toBe(2);
  });

  test('an override that agrees with violations (partially-supports) is not stale', () => {
    const d = derive({ groups: [violation('color-contrast', 0, 3, '1.4.3')] }, [
      override('1.4.3', 'partially-supports'),
    ]);
    expect(d.row('1.4.3').override?.stale).toBe(false);
  });

  test('an override to partially-supports where violations are on most pages is stale (the evidence says does-not-support)', () => {
    const d = derive(
      {
        groups: [
          violation('color-contrast', 0, 1, '1.4.3'),
          violation('color-contrast', 1, 1, '1.4.3'),
          violation('color-contrast', 2, 1, '1.4.3'),
        ],
      },
      [override('1.4.3', 'partially-supports'), override('1.1.1', 'does-not-support')],
    );
    const c = d.row('1.4.3');
    expect(c.conformance).toBe('partially-supports');
    expect(c.override?.stale).toBe(true);
    expect(c.override?.stale_reason).toContain('3 violations on 3 of 4 pages');
    expect(c.override?.stale_reason).toContain('Partially Supports');
    expect(c.needs_review).toBe(true);
    // Saying less than the evidence (does-not-support without violations) is never stale.
    expect(d.row('1.1.1').override?.stale).toBe(false);
  });

  test('4.1.1: duplicate-id violations (older axe-core runs that rule) never make an override of it stale', () => {
    const dup = [violation('duplicate-id', 0, 2, '4.1.1'), violation('duplicate-id', 1, 1, '4.1.1')];
    const d = derive({ groups: dup }, [override('4.1.1', 'not-applicable')]);
    // The VPAT instructions answer 4.1.1 whatever a scan finds (always satisfied; obsolete in 2.2).
    expect(d.row('4.1.1').override?.stale).toBe(false);
    expect(d.row('4.1.1').needs_review).toBe(false);
    expect(d.row('4.1.1').evidence.issues).toBe(3);
    const in508 = derive({ groups: dup }, [override('4.1.1', 'supports')], '508');
    expect(in508.row('4.1.1').override?.stale).toBe(false);
    expect(in508.summary.stale_overrides).toBe(0);
  });

  test('4.1.1 in WCAG 2.2 does not apply; the 508 chapter rows use their defaults and can be overridden', () => {
    const d = derive({ rulesRun: [] }, [override('402.2.1', 'supports')], '508');
    expect(d.row('4.1.1')).toMatchObject({
      conformance: 'supports',
      source: 'default',
      basis: 'vpat-instructions',
    });
    expect(derive({ rulesRun: [] }).row('4.1.1')).toMatchObject({
      conformance: 'not-applicable',
      source: 'default',
    });
    expect(d.row('402.2.2')).toMatchObject({
      conformance: 'not-applicable',
      source: 'default',
      basis: 'chapter-default',
      level: null,
    });
    expect(d.row('402.2.1')).toMatchObject({ conformance: 'supports', source: 'override' });
    // Functional performance needs people: not evaluated, which keeps the report a draft.
    expect(d.row('302.1')).toMatchObject({ conformance: 'not-evaluated', needs_review: true });
    expect(d.summary.undecided).toBeGreaterThan(0);
  });
});
