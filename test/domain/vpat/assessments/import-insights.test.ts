import fs from 'node:fs';
import {
  importInsights,
  looksLikeInsights,
} from '../../../../api/domain/vpat/assessments/import-insights.js';
import { DomainError } from '../../../../api/domain/errors.js';

type Store = { assessments: Record<string, { testStepStatus: Record<string, unknown> } | null> };
const read = (name: string) =>
  JSON.parse(fs.readFileSync(`test/fixtures/assessments/${name}.a11ywebassessment`, 'utf8')) as unknown;
const current = read('insights-current') as { version: number; assessmentData: Store };
const earlier = read('insights-earlier') as Store;

/**
 * Every requirement of the 23 assessments besides the automated checks, keyed as a saved file keys them
 * (`assessments.<key>.testStepStatus.<requirement>`), as Accessibility Insights for Web defines them in
 * src/assessments/<folder>/assessment.tsx and test-steps/.
 */
const ASSESSMENT: Record<string, string[]> = {
  keyboardInteraction: [
    'keyboard-navigation',
    'no-keyboard-traps',
    'on-focus',
    'on-input',
    'on-keystroke-timing',
    'character-key-shortcuts',
  ],
  visibleFocusOrder: [
    'visible-focus',
    'revealing-content',
    'modal-dialogs',
    'closing-content',
    'focus-order',
    'focus-not-obscured',
  ],
  landmarks: ['landmark-roles', 'primary-content', 'no-repeating-content'],
  headings: ['headingFunction', 'missingHeadings', 'headingLevel'],
  repetitiveContent: ['bypassBlocks', 'consistentNavigation', 'consistentIdentification', 'consistentHelp'],
  linksAssessment: ['linkFunction', 'linkPurpose', 'labelName'],
  nativeWidgets: ['widgetFunction', 'nativeInstructions', 'nativeLabel', 'nativeCues', 'nativeAutocomplete'],
  customWidgets: [
    'designPattern',
    'customWidgetsInstructions',
    'customWidgetsLabel',
    'roleStateProperty',
    'customWidgetsCues',
    'keyboardInteraction',
  ],
  timedEvents: ['time-limits', 'moving-content', 'auto-updating-content', 'audio-control'],
  errors: ['errorIdentification', 'errorSuggestion', 'errorPrevention', 'statusMessages'],
  page: ['pageTitle', 'frameTitle', 'generalNavigation'],
  images: ['imageFunction', 'textAlternative', 'imageOfText', 'captcha'],
  language: ['languageOfPage', 'languageOfParts', 'textDirection'],
  color: ['useOfColor', 'sensoryCharacteristics', 'auditoryCues', 'flashing'],
  textLegibility: [
    'highContrastMode',
    'resizeText',
    'contrast',
    'orientation',
    'reflow',
    'textSpacing',
    'hoverFocusContent',
  ],
  audioVideoOnly: ['audioOnlyEquivalent', 'videoOnlyEquivalent'],
  prerecordedMultimedia: ['captions', 'noObstruction', 'audioDescription', 'synchronization', 'noConflict'],
  liveMultimedia: ['liveCaptions'],
  sequence: ['cssPositioning', 'layoutTables', 'columns'],
  semanticsAssessment: [
    'cssContent',
    'tableSemantics',
    'headers',
    'headersAttribute',
    'lists',
    'emphasis',
    'quotes',
    'letterSpacing',
  ],
  pointerMotion: [
    'pointer-gestures',
    'pointer-cancellation',
    'motion-operation',
    'dragging-movements',
    'target-size',
  ],
  contrast: ['ui-components', 'state-changes', 'graphics'],
  cognitive: ['redundant-entry', 'authentication'],
};

/** A saved file in which every requirement above has the one status given. */
function everyRequirement(stepFinalResult: number) {
  const assessments = Object.fromEntries(
    Object.entries(ASSESSMENT).map(([key, reqs]) => [
      key,
      {
        testStepStatus: Object.fromEntries(reqs.map((r) => [r, { stepFinalResult, isStepScanned: false }])),
      },
    ]),
  );
  return {
    version: 1,
    assessmentData: { persistedTabInfo: { id: 1, url: 'https://shop.example/', title: 'Shop' }, assessments },
  };
}

describe('an Accessibility Insights for Web saved assessment', () => {
  test('the current file: each decided requirement gives its criteria, a failure fails all it bears on', () => {
    const a = importInsights(current);
    expect(a.format).toBe('accessibility-insights');
    expect(a.sample).toEqual([{ url: 'https://shop.example/cart', source: 'chosen' }]);
    expect(a.results.map((r) => [r.criterion, r.outcome])).toEqual([
      ['1.1.1', 'passed'],
      // prerecordedMultimedia/audioDescription bears on two criteria.
      ['1.2.3', 'passed'],
      ['1.2.5', 'passed'],
      // landmarks/primary-content passed, headings/headingFunction failed.
      ['1.3.1', 'failed'],
      // keyboard-navigation passed, on-keystroke-timing undecided: neither failed nor all passed.
      ['2.1.1', 'cantTell'],
      ['2.1.2', 'passed'],
      ['2.4.1', 'passed'],
      ['2.4.3', 'failed'],
      ['2.4.4', 'failed'],
      ['2.4.6', 'failed'],
      ['2.4.7', 'passed'],
      ['2.4.11', 'passed'],
      ['2.5.8', 'passed'],
      ['3.1.1', 'passed'],
      ['3.2.1', 'failed'],
      ['3.3.7', 'passed'],
      ['4.1.2', 'failed'],
    ]);
    const notes = Object.fromEntries(a.results.map((r) => [r.criterion, r.notes]));
    expect(notes['1.3.1']).toBe('landmarks/primary-content: passed; headings/headingFunction: failed');
    expect(notes['2.4.1']).toBe('landmarks/primary-content: passed; repetitiveContent/bypassBlocks: passed');
    expect(notes['4.1.2']).toBe('automated-checks/link-name: failed; automated-checks/label: passed');
    // document-title (2.4.2) and cognitive/authentication (3.3.8) were never decided: no result.
    expect(a.results.some((r) => ['2.4.2', '3.3.8'].includes(r.criterion))).toBe(false);
    expect(a.ignored).toEqual([]);
  });

  test('the earlier file (the store data alone), from before the file had a version, reads the same way', () => {
    expect(looksLikeInsights(earlier)).toBe(true);
    const a = importInsights(earlier);
    expect(a.sample).toEqual([{ url: 'https://shop.example/checkout', source: 'chosen' }]);
    expect(a.results.map((r) => [r.criterion, r.outcome])).toEqual([
      // nativeInstructions failed (1.3.1 and 2.5.3); headersAttribute passed; sequence/columns undecided.
      ['1.3.1', 'failed'],
      ['1.3.5', 'passed'],
      // link-in-text-block passed, color/useOfColor undecided.
      ['1.4.1', 'cantTell'],
      // color-contrast failed, textLegibility/contrast passed.
      ['1.4.3', 'failed'],
      ['1.4.4', 'passed'],
      ['2.4.4', 'passed'],
      ['2.5.3', 'failed'],
      ['3.1.1', 'passed'],
      ['3.3.1', 'passed'],
      ['3.3.2', 'passed'],
      ['4.1.2', 'passed'],
      ['4.1.3', 'failed'],
    ]);
    // The parsing assessment Insights has since retired: mapped to 4.1.1, which counts for nothing.
    expect(a.ignored).toEqual(['4.1.1 Parsing is obsolete in WCAG 2.2 and counts for nothing']);
  });

  test('the current file without its version wrapper is the earlier form and gives the same results', () => {
    expect(importInsights(current.assessmentData).results).toEqual(importInsights(current).results);
  });

  test('every requirement of every assessment is mapped: all passing answers all 55 A/AA criteria of WCAG 2.2', () => {
    const passed = importInsights(everyRequirement(0));
    expect(passed.results).toHaveLength(55);
    expect(new Set(passed.results.map((r) => r.outcome))).toEqual(new Set(['passed']));
    // The one requirement whose guidance names no WCAG criterion (Section 508 502.2.2 only).
    expect(passed.ignored).toEqual(['textLegibility/highContrastMode has no WCAG guidance link']);
    const failed = importInsights(everyRequirement(2));
    expect(failed.results.map((r) => r.outcome)).toEqual(Array(55).fill('failed'));
    const undecided = importInsights(everyRequirement(1));
    expect([undecided.results, undecided.ignored]).toEqual([[], []]);
  });

  test('a requirement this service does not know is named in notes, not guessed', () => {
    const doc = structuredClone(current);
    doc.assessmentData.assessments.keyboardInteraction!.testStepStatus['made-up'] = { stepFinalResult: 0 };
    expect(importInsights(doc).ignored).toEqual([
      'keyboardInteraction/made-up bears on no criterion this service knows',
    ]);
  });

  test('a status the tool never writes is refused with its pointer', () => {
    const bad = structuredClone(current);
    bad.assessmentData.assessments['automated-checks']!.testStepStatus.label = { stepFinalResult: 7 };
    try {
      importInsights(bad);
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).errors?.map((e) => e.pointer)).toEqual([
        '#/assessmentData/assessments/automated-checks/testStepStatus/label/stepFinalResult',
      ]);
    }
  });
});
