import fc from 'fast-check';
import { normalizeSelector } from '../../api/domain/selector-normalisation.js';

describe('normalizeSelector', () => {
  test.each([
    // CSS-in-JS and CSS Modules hashes
    ['.css-1x2y3z > a', '.css-*>a'],
    ['div.css-19qusx6-Button', 'div.css-*-Button'],
    ['.sc-AbCdE', '.sc-*'],
    ['.Header__Nav-sc-1h74qkx-0 > a', '.Header__Nav-sc-*>a'],
    ['._a1b2c span', '._* span'],
    ['.Button_primary__3xY7z', '.Button_primary__*'],
    ['.jsx-2345678901', '.jsx-*'],
    ['.svelte-1abcd2e', '.svelte-*'],
    ['.makeStyles-root-12', '.makeStyles-root-*'],
    ['.jss42', '.jss*'],
    ['[data-v-7ba5bd90] > p', '[data-v-*]>p'],
    ['[_ngcontent-ng-c1234567]', '[_ngcontent-*]'],
    ['#ember123', '#ember*'],
    // React useId and UUIDs
    ['#\\:r1\\: > input', '#\\:r*\\:>input'],
    ['#email-8f14e45f-ceea-467a-9575-1f1c2d3e4f50', '#email-*'],
    ['[data-id="8F14E45FCEEA467A95751F1C2D3E4F50"]', '[data-id="*"]'],
    // long numeric ids
    ['#post-123456 .title', '#post-* .title'],
    ['li:nth-child(3) > h1', 'li:nth-child(3)>h1'],
    // whitespace and combinators
    ['  main   >  ul  li + li ~ a ', 'main>ul li+li~a'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeSelector(input)).toBe(expected);
  });

  test('hand-written names that look a little generated are kept', () => {
    for (const s of ['.card__title', '.css-grid', '.sc-header', '._hidden', '.col-6', '.h-4', '#main']) {
      expect(normalizeSelector(s)).toBe(s);
    }
  });

  test('two builds of one element agree; different elements do not', () => {
    const build1 = normalizeSelector('.css-1x2y3z > .sc-AbCdE > button.Button_primary__3xY7z');
    const build2 = normalizeSelector('.css-9q8w7e >  .sc-XyZwV > button.Button_primary__9kLm2');
    expect(build1).toBe(build2);
    expect(normalizeSelector('#checkout > button')).not.toBe(normalizeSelector('#cart > button'));
  });
});

describe('normalizeSelector fast paths', () => {
  // The straightforward tidy-up the fast paths must equal: a changed key would change fingerprints
  // without a FINGERPRINT_VERSION bump.
  const tidy = (s: string) =>
    s
      .trim()
      .replace(/\s+/g, ' ')
      .replace(/\s*([>+~,])\s*/g, '$1');

  test('skipping the whitespace passes changes no key', () => {
    const piece = fc.constantFrom(
      ' ',
      '  ',
      '\t',
      '\n',
      '>',
      '+',
      '~',
      ',',
      'a',
      '.b',
      '#c',
      ':nth-child(2n + 1)',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const selector = parts.join('');
        expect(normalizeSelector(selector)).toBe(normalizeSelector(tidy(selector)));
        expect(normalizeSelector(selector)).toBe(tidy(selector).replace(/\d{4,}/g, '*'));
      }),
      { numRuns: 2000 },
    );
  });
});
