import { readFileSync } from 'node:fs';
import { issuesFromPa11y } from '../../../api/domain/scans/pa11y-import.js';
import { Pa11yInputSchema } from '../../../api/schemas/scans/pa11y.js';

const fixture = (name: string) =>
  Pa11yInputSchema.parse(
    JSON.parse(readFileSync(new URL(`../../fixtures/pa11y/${name}.json`, import.meta.url), 'utf8')),
  );

describe('pa11y import', () => {
  test('HTML_CodeSniffer: criterion from the code, type → impact and kind', () => {
    const input = fixture('htmlcs-issues');
    expect(Array.isArray(input)).toBe(true);
    const issues = issuesFromPa11y(input as never);
    expect(issues).toHaveLength(8);
    expect(issues[1]).toEqual({
      rule: 'WCAG2AA.Principle1.Guideline1_4.1_4_3.G18.Fail',
      impact: 'serious',
      kind: 'violation',
      message: expect.stringContaining('insufficient contrast') as unknown,
      selector: 'html > body > main > p:nth-child(2)',
      html: '<p style="color:#aaa;background:#fff">Only today: 20% off everything</p>',
      wcag: ['1.4.3'],
      helpUrl: null,
      source: null,
    });
    const byType = (impact: string) => issues.filter((i) => i.impact === impact).map((i) => i.kind);
    expect(byType('serious')).toEqual(['violation', 'violation', 'violation', 'violation', 'violation']);
    expect(byType('moderate')).toEqual(['incomplete']);
    expect(byType('minor')).toEqual(['incomplete', 'incomplete']);
    expect(issues.map((i) => i.wcag[0])).toEqual([
      '1.1.1',
      '1.4.3',
      '4.1.2',
      '4.1.2',
      '1.3.1',
      '1.4.3',
      '2.4.2',
      '2.4.4',
    ]);
  });

  test('axe runner: code is the rule, runnerExtras give impact and help URL, criteria come from the lookup', () => {
    const input = fixture('axe-result');
    const issues = issuesFromPa11y((input as { issues: never[] }).issues, (rule) =>
      rule === 'image-alt' ? ['1.1.1'] : [],
    );
    expect(issues.map((i) => [i.rule, i.impact, i.kind])).toEqual([
      ['button-name', 'critical', 'violation'],
      ['color-contrast', 'serious', 'violation'],
      ['image-alt', 'critical', 'violation'],
      ['landmark-unique', 'moderate', 'violation'],
    ]);
    expect(issues[2]).toMatchObject({
      wcag: ['1.1.1'],
      helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/image-alt?application=axeAPI',
      selector: 'html > body > main > img',
    });
  });

  test('old output without `runner` is told apart by the code; typeCode stands in for a missing type', () => {
    const issues = issuesFromPa11y([
      { code: 'WCAG2AA.Principle1.Guideline1_1.1_1_1.H37', typeCode: 2, message: 'm' },
      { code: 'image-alt', type: 'error', runnerExtras: { impact: 'critical' } },
    ]);
    expect(issues[0]).toMatchObject({ impact: 'moderate', kind: 'incomplete', wcag: ['1.1.1'] });
    expect(issues[1]).toMatchObject({ impact: 'critical', kind: 'violation', rule: 'image-alt' });
  });
});
