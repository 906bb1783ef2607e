import { catalogRowIds, editionCatalog, EDITIONS } from '../../../api/domain/vpat/editions.js';
import { compareCriterionIds, wcagCriteria } from '../../../api/domain/catalog/wcag.js';

const count = (version: '2.0' | '2.1' | '2.2', level: 'A' | 'AA' | 'AAA') =>
  wcagCriteria(version, level).filter((c) => c.level === level).length;

describe('WCAG catalog', () => {
  test.each([
    ['2.0', 25, 13, 23],
    ['2.1', 30, 20, 28],
    // 2.2: 31 Level A criteria plus 4.1.1 Parsing, kept as an obsolete row as in the VPAT 2.5 tables.
    ['2.2', 32, 24, 31],
  ] as const)('WCAG %s has %i A, %i AA and %i AAA criteria', (version, a, aa, aaa) => {
    expect(count(version, 'A')).toBe(a);
    expect(count(version, 'AA')).toBe(aa);
    expect(count(version, 'AAA')).toBe(aaa);
    expect(wcagCriteria(version, 'A')).toHaveLength(a);
    expect(wcagCriteria(version, 'AA')).toHaveLength(a + aa);
    expect(wcagCriteria(version, 'AAA')).toHaveLength(a + aa + aaa);
  });

  test('versions add criteria: 2.1 brings 1.3.4 and 2.5.3, 2.2 brings 2.4.11 and 2.5.8', () => {
    const ids = (v: '2.0' | '2.1' | '2.2') => wcagCriteria(v, 'AAA').map((c) => c.id);
    expect(ids('2.0')).not.toContain('1.3.4');
    expect(ids('2.1')).toEqual(expect.arrayContaining(['1.3.4', '2.5.3']));
    expect(ids('2.1')).not.toContain('2.5.8');
    expect(ids('2.2')).toEqual(expect.arrayContaining(['2.4.11', '2.5.8', '3.3.8']));
  });

  test('4.1.1 Parsing is obsolete only in 2.2', () => {
    const parsing = (v: '2.0' | '2.1' | '2.2') => wcagCriteria(v, 'A').find((c) => c.id === '4.1.1');
    expect(parsing('2.0')?.obsolete).toBe(false);
    expect(parsing('2.1')?.obsolete).toBe(false);
    expect(parsing('2.2')?.obsolete).toBe(true);
  });

  test('criteria are in numeric order (1.4.10 after 1.4.9)', () => {
    const ids = wcagCriteria('2.2', 'AAA').map((c) => c.id);
    expect([...ids].sort(compareCriterionIds)).toEqual(ids);
    expect(ids.indexOf('1.4.10')).toBeGreaterThan(ids.indexOf('1.4.9'));
  });
});

describe('VPAT editions', () => {
  const chapterSizes = (e: (typeof EDITIONS)[number], level: 'A' | 'AA' | 'AAA' = 'AA') =>
    Object.fromEntries(editionCatalog(e, '2.2', level).chapters.map((c) => [c.id, c.rows.length]));

  test('the WCAG edition has one table per level up to the chosen one', () => {
    expect(chapterSizes('wcag', 'A')).toEqual({ success_criteria_level_a: 32 });
    expect(chapterSizes('wcag', 'AA')).toEqual({
      success_criteria_level_a: 32,
      success_criteria_level_aa: 24,
    });
    expect(chapterSizes('wcag', 'AAA')).toEqual({
      success_criteria_level_a: 32,
      success_criteria_level_aa: 24,
      success_criteria_level_aaa: 31,
    });
  });

  test('the 508 edition adds chapters 3 to 6 of the Revised Section 508 standards', () => {
    expect(chapterSizes('508')).toEqual({
      success_criteria_level_a: 32,
      success_criteria_level_aa: 24,
      functional_performance_criteria: 9,
      hardware: 55,
      software: 26,
      support_documentation_and_services: 5,
    });
  });

  test('the EU edition adds the EN 301 549 chapters (chapter 9, Web, is the WCAG tables)', () => {
    expect(chapterSizes('eu')).toEqual({
      success_criteria_level_a: 32,
      success_criteria_level_aa: 24,
      en_301_549_functional_performance: 11,
      en_301_549_generic_requirements: 39,
      'en_301_549_ict_with_two-way_voice': 20,
      en_301_549_ict_with_video: 10,
      en_301_549_hardware: 33,
      'en_301_549_non-web-documents': 3,
      en_301_549_software: 31,
      en_301_549_documentation_and_support_services: 7,
      en_301_549_ict_providing_relay_or_emergency_service_access: 8,
    });
  });

  test('the INT edition has WCAG, 508 and EN 301 549, with unique row ids', () => {
    const cat = editionCatalog('int', '2.1', 'AA');
    expect(cat.standards.map((s) => s.id)).toEqual(['wcag-2.1', '508', 'eu']);
    expect(cat.chapters).toHaveLength(2 + 4 + 9);
    const rows = cat.chapters.flatMap((c) => c.rows);
    expect(catalogRowIds(cat).size).toBe(rows.length);
    // GSA publishes no VPAT 2.5 INT catalog for WCAG 2.1: the WCAG 2.2 one holds every row (see vpat-render.test).
    expect(cat.catalogName).toBe('2.5-edition-wcag-2.2-508-eu-en');
  });

  test('non-web chapters default to not-applicable (or not-evaluated for people-facing ones), with remarks', () => {
    const cat = editionCatalog('int', '2.2', 'AA');
    const first = (id: string) => cat.chapters.find((c) => c.id === id)!.rows[0];
    expect(first('hardware').defaultAnswer).toMatchObject({ conformance: 'not-applicable' });
    expect(first('en_301_549_ict_with_two-way_voice').defaultAnswer).toMatchObject({
      conformance: 'not-applicable',
    });
    expect(first('functional_performance_criteria').defaultAnswer).toMatchObject({
      conformance: 'not-evaluated',
    });
    expect(first('en_301_549_documentation_and_support_services').defaultAnswer).toMatchObject({
      conformance: 'not-evaluated',
    });
    for (const ch of cat.chapters.filter((c) => c.standard !== 'wcag')) {
      for (const row of ch.rows) {
        expect(row.level).toBeNull();
        expect(row.defaultAnswer?.remarks.length).toBeGreaterThan(30);
      }
    }
  });

  test('4.1.1 is answered as the VPAT 2.5 instructions say', () => {
    const parsing = (e: (typeof EDITIONS)[number], v: '2.0' | '2.1' | '2.2') =>
      editionCatalog(e, v, 'A').chapters[0].rows.find((r) => r.id === '4.1.1')!.defaultAnswer!;
    expect(parsing('wcag', '2.0').conformance).toBe('supports');
    expect(parsing('wcag', '2.1').conformance).toBe('supports');
    expect(parsing('wcag', '2.2').conformance).toBe('not-applicable');
    expect(parsing('wcag', '2.2').remarks).toMatch(/obsolete and removed/);
    // Revised Section 508 (WCAG 2.0) and EN 301 549 still contain it: always Supports.
    expect(parsing('508', '2.2').conformance).toBe('supports');
    expect(parsing('int', '2.2').conformance).toBe('supports');
  });
});
