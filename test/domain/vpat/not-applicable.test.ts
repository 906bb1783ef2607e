import { suggestNotApplicable } from '../../../api/domain/vpat/not-applicable.js';

const page = (index: number, rulesInapplicable: string[] | null | undefined) => ({
  index,
  url: `https://shop.test/p${index}`,
  rulesInapplicable,
});

describe('the Not Applicable suggestion', () => {
  test('every rule of the criterion had nothing to test on every page: suggested, with its evidence', () => {
    const s = suggestNotApplicable(
      ['video-caption'],
      [page(0, ['video-caption', 'label']), page(1, ['video-caption'])],
    );
    expect(s).toEqual({
      conformance: 'not-applicable',
      rules: ['video-caption'],
      pages: 2,
      reason:
        'Suggested: Not Applicable. The axe-core rule that tests this criterion (video-caption) found nothing to test on any of the 2 scanned pages. A person decides whether the criterion applies.',
    });
  });

  test('one page where the rule had something to test, or one rule of several that did: no suggestion', () => {
    expect(
      suggestNotApplicable(['video-caption'], [page(0, ['video-caption']), page(1, ['label'])]),
    ).toBeNull();
    expect(suggestNotApplicable(['image-alt', 'role-img-alt'], [page(0, ['image-alt'])])).toBeNull();
  });

  test('a page that does not say which rules were inapplicable, or no page or no rule: no suggestion', () => {
    expect(suggestNotApplicable(['video-caption'], [page(0, ['video-caption']), page(1, null)])).toBeNull();
    expect(suggestNotApplicable(['video-caption'], [page(0, undefined)])).toBeNull();
    expect(suggestNotApplicable(['video-caption'], [])).toBeNull();
    expect(suggestNotApplicable([], [page(0, ['video-caption'])])).toBeNull();
  });

  test('several rules, each inapplicable everywhere: all are named, sorted', () => {
    const s = suggestNotApplicable(['role-img-alt', 'image-alt'], [page(0, ['image-alt', 'role-img-alt'])]);
    expect(s?.rules).toEqual(['image-alt', 'role-img-alt']);
    expect(s?.reason).toContain('rules that test this criterion (image-alt, role-img-alt)');
    expect(s?.reason).toContain('any of the 1 scanned page.');
  });
});
