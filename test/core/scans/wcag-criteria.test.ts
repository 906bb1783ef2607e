import { criterionFromHtmlcsCode } from '../../../core/scans/wcag-criteria.js';

describe('criterionFromHtmlcsCode', () => {
  test.each([
    ['WCAG2AA.Principle1.Guideline1_4.1_4_3.G18.Fail', '1.4.3'],
    ['WCAG2AA.Principle1.Guideline1_1.1_1_1.H37', '1.1.1'],
    ['WCAG2AAA.Principle1.Guideline1_4.1_4_6.G17.Fail', '1.4.6'],
    ['WCAG2AA.Principle1.Guideline1_3.1_3_1_A.G141', '1.3.1'],
    ['WCAG2AA.Principle2.Guideline2_4.2_4_4.H77,H78,H79,H80,H81', '2.4.4'],
    ['WCAG2AA.Principle1.Guideline1_4.1_4_10.C32,C31,C33,C38,SCR34,G206', '1.4.10'],
  ])('%s → %s', (code, criterion) => {
    expect(criterionFromHtmlcsCode(code)).toBe(criterion);
  });

  test('codes without a WCAG criterion give none', () => {
    expect(criterionFromHtmlcsCode('Section508.A.Img.MissingAlt')).toBeUndefined();
    expect(criterionFromHtmlcsCode('color-contrast')).toBeUndefined();
  });
});
