import fc from 'fast-check';
import { FingerprintTable } from '../../../core/matching/fingerprint-table.js';
import { fingerprintStep } from '../../../core/matching/matcher.js';

// Strings that share what the table's key samples (length, both ends, every fourth character) and
// differ elsewhere, beside short and empty ones: the table must still tell them apart.
const arbKey = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    'a'.repeat(64),
    `${'a'.repeat(31)}b${'a'.repeat(32)}`,
    `${'a'.repeat(33)}c${'a'.repeat(30)}`,
  ),
  fc.stringMatching(/^[0-9a-f]{64}$/),
);

describe('the fingerprint table', () => {
  test('finds what a Map finds, for any strings', () => {
    fc.assert(
      fc.property(
        fc.array(arbKey, { maxLength: 60 }),
        fc.array(arbKey, { maxLength: 30 }),
        (stored, probes) => {
          const table = new FingerprintTable(stored);
          const map = new Map<string, number>();
          stored.forEach((s, i) => {
            table.set(i, i);
            map.set(s, i);
          });
          for (const s of [...stored, ...probes]) expect(table.get(s)).toBe(map.get(s));
        },
      ),
    );
  });

  test('step 1 pairs the same issues from objects and from their fingerprints, in any order', () => {
    fc.assert(
      fc.property(fc.array(arbKey, { maxLength: 40 }), fc.array(arbKey, { maxLength: 40 }), (h, b) => {
        const objects = fingerprintStep(
          h.map((fingerprint) => ({ fingerprint })),
          b.map((fingerprint) => ({ fingerprint })),
        );
        const strings = fingerprintStep(h, b);
        expect(strings).toEqual(objects);
        // Each pair holds equal fingerprints, and needs come out in index order.
        strings.matching.headToBaseline.forEach((j, i) => j >= 0 && expect(b[j]).toBe(h[i]));
        expect(strings.headNeeds).toEqual([...strings.headNeeds].sort((x, y) => x - y));
        expect(strings.baselineNeeds).toEqual([...strings.baselineNeeds].sort((x, y) => x - y));
      }),
    );
  });
});
