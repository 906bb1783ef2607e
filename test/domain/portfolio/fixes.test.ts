import { openingTagKey } from '../../../core/matching/element-identity.js';
import { fixCodeLink, fixGroups, type FixIssue } from '../../../api/domain/portfolio/fixes.js';

const issue = (
  page: string,
  rule: string,
  impact: FixIssue['impact'],
  extra: Partial<FixIssue> = {},
): FixIssue => ({
  page,
  rule,
  impact,
  selector: null,
  html: null,
  source: null,
  ...extra,
});

describe('the fixes that clear the most', () => {
  test('the opening tag as identities see it: attributes sorted, build hashes and generated names masked, text left out', () => {
    expect(openingTagKey('<button class="btn css-1x2y3z" type="submit">Buy</button>')).toBe(
      openingTagKey('<button type="submit" class="btn css-9q8w7e">Pay now</button>'),
    );
    expect(openingTagKey('<img src="/hero.3f9a1c.png">')).toBe(openingTagKey('<img src="/hero.77bd02.png">'));
    expect(openingTagKey('<img src="/a.png">')).not.toBe(openingTagKey('<img src="/b.png">'));
    expect(openingTagKey('no markup')).toBeNull();
    expect(openingTagKey(null)).toBeNull();
  });

  test('a located path:line first, else one rule on the same markup across pages; ranked by pages weighted by impact', () => {
    const btn = (n: string) => `<button class="cta css-${n}">`;
    const groups = fixGroups([
      // A shared component on three pages, serious: 3 × 5 = 15.
      issue('/a', 'button-name', 'serious', { html: btn('aa11bb'), selector: '#x' }),
      issue('/b', 'button-name', 'serious', { html: btn('cc22dd'), selector: '#y' }),
      issue('/c', 'button-name', 'serious', { html: btn('ee33ff') }),
      // The same markup but another rule is another cause.
      issue('/a', 'color-contrast', 'serious', { html: btn('aa11bb') }),
      // One source line, two rules, two pages; on /a a critical and a minor: 10 + 1 = 11.
      issue('/a', 'image-alt', 'critical', {
        html: '<img src="x.png">',
        source: { path: 'src/Hero.tsx', line: 12 },
      }),
      issue('/a', 'link-name', 'minor', { source: { path: 'src/Hero.tsx', line: 12 } }),
      issue('/b', 'link-name', 'minor', { source: { path: 'src/Hero.tsx', line: 12 } }),
      // Neither: one rule on one selector, twice on one page: 2.
      issue('/d', 'region', 'moderate', { selector: '#main' }),
      issue('/d', 'region', 'moderate', { selector: '#main' }),
    ]);
    expect(groups.map((g) => [g.kind, g.rules.join('+'), g.score, g.pageCount, g.issueCount])).toEqual([
      ['markup', 'button-name', 15, 3, 3],
      ['source', 'image-alt+link-name', 11, 2, 3],
      ['markup', 'color-contrast', 5, 1, 1],
      ['selector', 'region', 2, 1, 2],
    ]);
    expect(groups[0]).toMatchObject({
      markup: '<button class=cta css-*>',
      pages: ['/a', '/b', '/c'],
      impact: 'serious',
    });
    expect(groups[1]).toMatchObject({ path: 'src/Hero.tsx', line: 12, impact: 'critical', markup: null });
  });

  test('ties go to more pages, then more issues', () => {
    const groups = fixGroups([
      issue('/a', 'r1', 'serious', { selector: '#one' }),
      issue('/a', 'r2', 'minor', { selector: '#two' }),
      issue('/b', 'r2', 'minor', { selector: '#two' }),
      issue('/c', 'r2', 'minor', { selector: '#two' }),
      issue('/d', 'r2', 'minor', { selector: '#two' }),
      issue('/e', 'r2', 'minor', { selector: '#two' }),
    ]);
    expect(groups.map((g) => g.rules[0])).toEqual(['r2', 'r1']);
  });

  test('one link to the code: the blob at the commit with the repository, else path:line', () => {
    expect(fixCodeLink({ path: './src/a b.tsx', line: 7 }, 'acme/shop', 'abc123')).toBe(
      'https://github.com/acme/shop/blob/abc123/src/a%20b.tsx#L7',
    );
    expect(fixCodeLink({ path: 'src/a.tsx', line: 7 }, null, 'abc123')).toBe('src/a.tsx:7');
    expect(fixCodeLink({ path: 'src/a.tsx', line: null }, null, null)).toBe('src/a.tsx');
    expect(fixCodeLink({ path: null, line: null }, 'acme/shop', 'abc')).toBeNull();
  });
});
