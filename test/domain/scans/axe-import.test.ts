import { readFileSync } from 'node:fs';
import { axeTargetToSelector } from '../../../core/scans/axe-target.js';
import { issuesFromAxe, rulesRunByAxe } from '../../../api/domain/scans/axe-import.js';
import { AxeResults } from '../../../api/schemas/scans/scans.js';

// Real axe-core output (test/fixtures/generate-axe.ts ran axe-core in Chromium on test/fixtures/axe/pages.ts).
const fixture = (name: string) =>
  AxeResults.parse(
    JSON.parse(readFileSync(new URL(`../../fixtures/axe/${name}.json`, import.meta.url), 'utf8')),
  );

describe('axe import on real axe-core output', () => {
  test('violations and incomplete become one issue per node with impact, wcag, help URL and message', () => {
    const issues = issuesFromAxe(fixture('defects'));
    expect(issues.map((i) => `${i.kind}:${i.rule}`).sort()).toEqual([
      'incomplete:color-contrast',
      'violation:button-name',
      'violation:color-contrast',
      'violation:image-alt',
      'violation:label',
      'violation:link-name',
    ]);
    const image = issues.find((i) => i.rule === 'image-alt')!;
    expect(image).toMatchObject({
      impact: 'critical',
      selector: 'img',
      wcag: ['1.1.1'],
      helpUrl: expect.stringMatching(
        /^https:\/\/dequeuniversity\.com\/rules\/axe\/4\.\d+\/image-alt/,
      ) as unknown,
      source: null,
    });
    expect(image.html).toContain('<img');
    expect(image.message).toMatch(/^Fix any of the following:/);
    expect(issues.find((i) => i.rule === 'link-name')!.wcag).toEqual(['2.4.4', '4.1.2']);
    expect(issues.find((i) => i.rule === 'label')!.selector).toBe(
      '#email-8f14e45f-ceea-467a-9575-1f1c2d3e4f50',
    );
    const undecided = issues.find((i) => i.kind === 'incomplete')!;
    expect(undecided).toMatchObject({ rule: 'color-contrast', impact: 'serious', wcag: ['1.4.3'] });
    expect(undecided.message).toMatch(/gradient/);
  });

  test('iframe and shadow-DOM target paths survive', () => {
    const issues = issuesFromAxe(fixture('nested'));
    expect(issues.find((i) => i.rule === 'button-name')!.selector).toBe('#card-host >>> button');
    expect(issues.find((i) => i.rule === 'image-alt')!.selector).toBe('#payment |> #card-logo');
  });

  test('a clean page gives no issues but tells which rules ran', () => {
    const clean = fixture('clean');
    expect(issuesFromAxe(clean)).toEqual([]);
    const ran = rulesRunByAxe(clean);
    expect(ran).toEqual(expect.arrayContaining(['document-title', 'html-has-lang']));
    expect(ran.length).toBe(new Set([...clean.passes, ...clean.inapplicable].map((r) => r.id)).size);
  });

  test('rules run is the union of passes, violations, incomplete and inapplicable', () => {
    const defects = fixture('defects');
    const ran = rulesRunByAxe(defects);
    for (const list of [defects.passes, defects.violations, defects.incomplete, defects.inapplicable]) {
      for (const r of list) expect(ran).toContain(r.id);
    }
    expect(new Set(ran).size).toBe(ran.length);
  });
});

describe('axeTargetToSelector', () => {
  test('joins frames with |> and shadow roots with >>>', () => {
    expect(axeTargetToSelector(['main > img'])).toBe('main > img');
    expect(axeTargetToSelector(['iframe#pay', ['#host', '#inner', 'button']])).toBe(
      'iframe#pay |> #host >>> #inner >>> button',
    );
    expect(axeTargetToSelector([])).toBe('');
  });

  test('a node without impact takes the rule impact; a missing failure summary falls back to help', () => {
    const issues = issuesFromAxe(
      AxeResults.parse({
        violations: [
          { id: 'x', impact: 'minor', tags: [], help: 'Help text', nodes: [{ target: ['p'], impact: null }] },
        ],
      }),
    );
    expect(issues).toEqual([
      {
        rule: 'x',
        impact: 'minor',
        kind: 'violation',
        message: 'Help text',
        selector: 'p',
        html: null,
        wcag: [],
        helpUrl: null,
        source: null,
      },
    ]);
  });
});
