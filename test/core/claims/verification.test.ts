import { readFileSync } from 'node:fs';
import type { AxeResults } from 'axe-core';
import { elementText, verifyClaims, type ScannedElement } from '../../../core/claims/verification.js';
import { viewportPageKey } from '../../../core/matching/fingerprint.js';
import { normalizeUrl, pageKey } from '../../../core/url-normalisation.js';
import { axeFindings } from '../../../scanner/findings.js';
import { fingerprintOf } from '../../../scanner/sarif.js';

// Real axe-core results of one page before and after a change (test/fixtures/axe/pages.ts: defects, fixes).
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/axe/${name}.json`, import.meta.url), 'utf8')) as AxeResults;
const before = read('defects');
const after = read('fixes');

/** The elements of some axe rules as the scanner fingerprints them. */
function elements(result: AxeResults, rules: AxeResults['violations']): ScannedElement[] {
  return axeFindings(result.url, { violations: rules, incomplete: [] }).map((f) => ({
    fingerprint: fingerprintOf(f),
    rule: f.rule,
    page: viewportPageKey(pageKey(normalizeUrl(f.pageUrl)!), f.viewport),
    selector: f.selector,
    html: f.html,
  }));
}

const baseline = elements(before, before.violations);
const rescan = {
  pages: [baseline[0].page],
  violations: elements(after, after.violations),
  passes: elements(after, after.passes),
  passPages: [baseline[0].page],
};
const claimOf = (rule: string) => baseline.find((b) => b.rule === rule)!.fingerprint;

describe('verifyClaims on real axe-core results', () => {
  test('answers each claim element by element', () => {
    const rules = ['color-contrast', 'image-alt', 'button-name', 'label', 'link-name'];
    const answers = verifyClaims(rules.map(claimOf), baseline, rescan);
    expect(answers.map((a) => [a.rule, a.outcome])).toEqual([
      ['color-contrast', 'verified'],
      ['image-alt', 'needs_person'],
      ['button-name', 'needs_person'],
      ['label', 'removed'],
      ['link-name', 'not_fixed'],
    ]);
  });

  test('a text rule shows the new text beside the old', () => {
    const [img, button] = verifyClaims([claimOf('image-alt'), claimOf('button-name')], baseline, rescan);
    expect(img.before?.text).toBeNull();
    expect(img.after?.text).toBe('image');
    expect(button.after).toEqual({ html: '<button class="sc-AbCdE">Delete</button>', text: 'Delete' });
  });

  test('an element gone while something new of its rule appeared on the page is not fixed', () => {
    const label = baseline.find((b) => b.rule === 'label')!;
    const other: ScannedElement = {
      ...label,
      fingerprint: 'other',
      selector: '#search',
      html: '<textarea id="search"></textarea>',
    };
    const [answer] = verifyClaims([label.fingerprint], baseline, {
      ...rescan,
      violations: [...rescan.violations, other],
    });
    expect(answer.outcome).toBe('not_fixed');
    expect(answer.reason).toMatch(/new label issue/);
  });

  test('an unknown fingerprint, and a page the new scan does not hold', () => {
    const answers = verifyClaims(['f'.repeat(64), claimOf('image-alt')], baseline, { ...rescan, pages: [] });
    expect(answers.map((a) => a.outcome)).toEqual(['unknown', 'not_rescanned']);
  });

  test('without the page’s passing elements, a text rule’s element that is gone goes to a person', () => {
    // A scan without --keep-passes: a label that passes on any text would look like a removed element.
    const blind = { ...rescan, passes: [], passPages: [] };
    const [label, contrast] = verifyClaims([claimOf('label'), claimOf('color-contrast')], baseline, blind);
    expect(label.outcome).toBe('needs_person');
    expect(label.before?.html).toBe(baseline.find((b) => b.rule === 'label')!.html);
    expect(label.after).toBeUndefined();
    // A rule that judges no text is settled by the scan alone.
    expect(contrast.outcome).toBe('removed');
  });

  test('a still-failing element is not fixed even when the rule passes on other elements', () => {
    // The unchanged defects page: color-contrast passes on the h1 and still fails on the paragraph.
    const same = { ...rescan, violations: baseline, passes: elements(before, before.passes) };
    const [answer] = verifyClaims([claimOf('color-contrast')], baseline, same);
    expect(answer.outcome).toBe('not_fixed');
  });
});

describe('elementText', () => {
  test('reads the naming attribute first, else the text', () => {
    expect(elementText('<img alt="" src="x.png">').text).toBe('');
    expect(elementText('<a href="/" aria-label="Home">Start</a>').text).toBe('Home');
    expect(elementText('<a href="/"><span>Start</span></a>').text).toBe('Start');
    expect(elementText('<button></button>').text).toBeNull();
    expect(elementText(null)).toEqual({ html: null, text: null });
  });
});
