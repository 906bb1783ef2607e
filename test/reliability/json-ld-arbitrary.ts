import fc from 'fast-check';

/**
 * WCAG-EM Report Tool evaluations as a hostile client writes them, as JSON text (a chain of parts far
 * deeper than JSON.stringify can write is built as text): deep `hasPart` chains around and far past
 * the import's depth limit, wide samples and audits around the import's counts, long and repeated page
 * URLs, tests and outcomes no tool writes, and the earlier export's keys.
 */

const TESTS = [
  'WCAG22:non-text-content',
  'WCAG21:contrast-minimum',
  'wcag20:text-equiv-all',
  '1.4.3',
  '4.1.1',
];
const OUTCOMES = ['earl:passed', 'earl:failed', 'earl:cantTell', 'earl:inapplicable', 'earl:untested'];

const oddValue = fc.oneof(
  fc.constantFrom(null, 0, -1, true, '', '\u0000', '_:page_1', 'WCAG21:made-up', 'earl:bogus'),
  fc.jsonValue({ maxDepth: 2 }),
);

const url = fc.oneof(
  { weight: 6, arbitrary: fc.nat(600).map((n) => `https://fuzz.example/p/${n}`) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1990, max: 2010 }).map((n) => `https://fuzz.example/${'u'.repeat(n)}`),
  },
  { weight: 1, arbitrary: oddValue },
);

const assertion = fc.record({
  test: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...TESTS) }, { weight: 1, arbitrary: oddValue }),
  subject: fc.oneof(
    { weight: 6, arbitrary: fc.nat(600).map((n) => ({ id: n === 0 ? '_:website' : `_:page_${n}` })) },
    { weight: 1, arbitrary: oddValue },
  ),
  result: fc.record({
    outcome: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...OUTCOMES).map((id) => ({ id })) },
      { weight: 1, arbitrary: oddValue },
    ),
    description: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('n'.repeat(6000))),
  }),
  assertedBy: fc.option(fc.oneof(fc.constant('Ann'), oddValue), { nil: undefined }),
});

/** Copies of one generated assertion, or of a tiny value by the tens of thousands (around the counted limits). */
const audit = fc.oneof(
  fc
    .tuple(assertion, fc.nat(20))
    .map(([one, n]) => Array.from({ length: n }, () => JSON.stringify(one)).join(',')),
  fc
    .tuple(
      fc.constantFrom('{}', '0', '[]', '{"hasPart":[]}'),
      fc.oneof(fc.integer({ min: 43_500, max: 43_700 }), fc.integer({ min: 871_700, max: 871_800 })),
    )
    .map(([tiny, n]) => `${tiny},`.repeat(n - 1) + tiny),
);

export const wcagEmText: fc.Arbitrary<string> = fc
  .record({
    earlier: fc.boolean(),
    pages: fc.oneof(fc.array(url, { maxLength: 30 }), fc.integer({ min: 490, max: 30_000 })),
    audit,
    depth: fc.oneof(
      { weight: 3, arbitrary: fc.nat(10) },
      { weight: 1, arbitrary: fc.integer({ min: 60, max: 70 }) },
      { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 5_000 }) },
    ),
    part: assertion,
  })
  .map(({ earlier, pages, audit: flat, depth, part }) => {
    const urls =
      typeof pages === 'number'
        ? Array.from({ length: pages }, (_, i) => `https://fuzz.example/${i}`)
        : pages;
    const sample = urls.map((source, i) => ({ id: `_:page_${i + 1}`, source }));
    const piece = JSON.stringify(part).slice(0, -1);
    const chain = `${piece},"hasPart":[`.repeat(depth) + `${piece}}` + ']}'.repeat(depth);
    const audits = [chain, flat].filter(Boolean).join(',');
    return earlier
      ? `{"@context":{},"evaluationScope":{"conformanceTarget":"AA"},"structuredSample":{"webpage":${JSON.stringify(sample)}},"auditResult":[${audits}]}`
      : `{"@context":{},"selectSample":{"structuredSample":${JSON.stringify(sample)}},"auditSample":[${audits}]}`;
  });
