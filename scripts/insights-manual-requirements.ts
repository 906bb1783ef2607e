/**
 * The requirements of Accessibility Insights for Web's Assessment outside its automated checks, as a saved
 * assessment names them (`assessments.<assessment key>.testStepStatus.<requirement key>`), and the WCAG
 * criteria of their guidance links. Transcribed by hand from github.com/microsoft/accessibility-insights-web
 * (MIT; see api/domain/catalog/NOTICE.md):
 *
 * - the assessments: `src/assessments/assessments.ts` at 84c77de1bce5860d9dda83bbefeb0474d726cb19
 *   (23 besides the automated checks; `parsing` is kept for earlier files, see below);
 * - each assessment's key: `const key = '…'` in `src/assessments/<folder>/assessment.tsx` (`assessments.tsx`
 *   for links). It is not always the folder's name: adaptable-content keeps `textLegibility`, links is
 *   `linksAssessment`, semantics is `semanticsAssessment`;
 * - each requirement's key: the enum value in `src/assessments/<folder>/test-steps/test-steps.ts` (or
 *   `test-step.ts`) that `key:` names in `src/assessments/<folder>/test-steps/<requirement>.tsx`, the file
 *   whose `guidanceLinks: [link.WCAG_x_y_z, …]` gives the criteria (`src/content/link.tsx`: `WCAG_x_y_z` is
 *   the link to WCAG x.y.z); each file as read in November 2026;
 * - checked against the project's own saved file,
 *   `src/tests/end-to-end/test-resources/saved-assessment-files/saved_assessment_test_file.a11ywebassessment`
 *   at de036b61f51e04894ab6d91b95391996233a513d, which holds the same assessment and requirement keys.
 *
 * Two entries need a word. textLegibility/highContrastMode has no WCAG guidance link (its one link is
 * Section 508 502.2.2), so it maps to nothing. The links requirement "Label in name" is `LinksTestStep.labelName`
 * = 'labelName' in the enum version read, and later files refer to a renamed member `labelInName` whose value
 * could not be read: both spellings map to its criterion. `parsing` (4.1.1) is an assessment Insights has
 * since deprecated; earlier files still carry it.
 */
export const MANUAL_REQUIREMENTS: ReadonlyArray<readonly [string, string, readonly string[]]> = [
  ['keyboardInteraction', 'keyboard-navigation', ['2.1.1']],
  ['keyboardInteraction', 'no-keyboard-traps', ['2.1.2']],
  ['keyboardInteraction', 'on-focus', ['3.2.1']],
  ['keyboardInteraction', 'on-input', ['3.2.2']],
  ['keyboardInteraction', 'on-keystroke-timing', ['2.1.1']],
  ['keyboardInteraction', 'character-key-shortcuts', ['2.1.4']],
  ['visibleFocusOrder', 'visible-focus', ['2.4.7']],
  ['visibleFocusOrder', 'revealing-content', ['2.4.3']],
  ['visibleFocusOrder', 'modal-dialogs', ['2.4.3']],
  ['visibleFocusOrder', 'closing-content', ['2.4.3']],
  ['visibleFocusOrder', 'focus-order', ['2.4.3']],
  ['visibleFocusOrder', 'focus-not-obscured', ['2.4.11']],
  ['landmarks', 'landmark-roles', ['1.3.1']],
  ['landmarks', 'primary-content', ['1.3.1', '2.4.1']],
  ['landmarks', 'no-repeating-content', ['1.3.1', '2.4.1']],
  ['headings', 'headingFunction', ['1.3.1', '2.4.6']],
  ['headings', 'missingHeadings', ['1.3.1', '2.4.1']],
  ['headings', 'headingLevel', ['1.3.1']],
  ['repetitiveContent', 'bypassBlocks', ['2.4.1']],
  ['repetitiveContent', 'consistentNavigation', ['3.2.3']],
  ['repetitiveContent', 'consistentIdentification', ['3.2.4']],
  ['repetitiveContent', 'consistentHelp', ['3.2.6']],
  ['linksAssessment', 'linkFunction', ['4.1.2']],
  ['linksAssessment', 'linkPurpose', ['2.4.4']],
  ['linksAssessment', 'labelName', ['2.5.3']],
  ['linksAssessment', 'labelInName', ['2.5.3']],
  ['nativeWidgets', 'widgetFunction', ['4.1.2']],
  ['nativeWidgets', 'nativeInstructions', ['1.3.1', '2.5.3']],
  ['nativeWidgets', 'nativeLabel', ['3.3.2']],
  ['nativeWidgets', 'nativeCues', ['1.3.1', '4.1.2']],
  ['nativeWidgets', 'nativeAutocomplete', ['1.3.5']],
  ['customWidgets', 'designPattern', ['4.1.2']],
  ['customWidgets', 'customWidgetsInstructions', ['1.3.1', '2.5.3']],
  ['customWidgets', 'customWidgetsLabel', ['3.3.2']],
  ['customWidgets', 'roleStateProperty', ['4.1.2']],
  ['customWidgets', 'customWidgetsCues', ['1.3.1', '4.1.2']],
  ['customWidgets', 'keyboardInteraction', ['2.1.1']],
  ['timedEvents', 'time-limits', ['2.2.1']],
  ['timedEvents', 'moving-content', ['2.2.2']],
  ['timedEvents', 'auto-updating-content', ['2.2.2']],
  ['timedEvents', 'audio-control', ['1.4.2']],
  ['errors', 'errorIdentification', ['3.3.1']],
  ['errors', 'errorSuggestion', ['3.3.3']],
  ['errors', 'errorPrevention', ['3.3.4']],
  ['errors', 'statusMessages', ['4.1.3']],
  ['page', 'pageTitle', ['2.4.2']],
  ['page', 'frameTitle', ['4.1.2']],
  ['page', 'generalNavigation', ['2.4.5']],
  ['images', 'imageFunction', ['1.1.1']],
  ['images', 'textAlternative', ['1.1.1']],
  ['images', 'imageOfText', ['1.4.5']],
  ['images', 'captcha', ['1.1.1']],
  ['language', 'languageOfPage', ['3.1.1']],
  ['language', 'languageOfParts', ['3.1.2']],
  ['language', 'textDirection', ['1.3.2']],
  ['color', 'useOfColor', ['1.4.1']],
  ['color', 'sensoryCharacteristics', ['1.3.3']],
  ['color', 'auditoryCues', ['1.1.1']],
  ['color', 'flashing', ['2.3.1']],
  ['textLegibility', 'highContrastMode', []],
  ['textLegibility', 'resizeText', ['1.4.4']],
  ['textLegibility', 'contrast', ['1.4.3']],
  ['textLegibility', 'orientation', ['1.3.4']],
  ['textLegibility', 'reflow', ['1.4.10']],
  ['textLegibility', 'textSpacing', ['1.4.12']],
  ['textLegibility', 'hoverFocusContent', ['1.4.13']],
  ['audioVideoOnly', 'audioOnlyEquivalent', ['1.2.1']],
  ['audioVideoOnly', 'videoOnlyEquivalent', ['1.2.1']],
  ['prerecordedMultimedia', 'captions', ['1.2.2']],
  ['prerecordedMultimedia', 'noObstruction', ['1.2.2']],
  ['prerecordedMultimedia', 'audioDescription', ['1.2.3', '1.2.5']],
  ['prerecordedMultimedia', 'synchronization', ['1.2.5']],
  ['prerecordedMultimedia', 'noConflict', ['1.2.5']],
  ['liveMultimedia', 'liveCaptions', ['1.2.4']],
  ['sequence', 'cssPositioning', ['1.3.2']],
  ['sequence', 'layoutTables', ['1.3.2']],
  ['sequence', 'columns', ['1.3.1', '1.3.2']],
  ['semanticsAssessment', 'cssContent', ['1.3.1']],
  ['semanticsAssessment', 'tableSemantics', ['1.3.1']],
  ['semanticsAssessment', 'headers', ['1.3.1']],
  ['semanticsAssessment', 'headersAttribute', ['1.3.1']],
  ['semanticsAssessment', 'lists', ['1.3.1']],
  ['semanticsAssessment', 'emphasis', ['1.3.1']],
  ['semanticsAssessment', 'quotes', ['1.3.1']],
  ['semanticsAssessment', 'letterSpacing', ['1.3.1']],
  ['pointerMotion', 'pointer-gestures', ['2.5.1']],
  ['pointerMotion', 'pointer-cancellation', ['2.5.2']],
  ['pointerMotion', 'motion-operation', ['2.5.4']],
  ['pointerMotion', 'dragging-movements', ['2.5.7']],
  ['pointerMotion', 'target-size', ['2.5.8']],
  ['contrast', 'ui-components', ['1.4.11']],
  ['contrast', 'state-changes', ['1.4.11']],
  ['contrast', 'graphics', ['1.4.11']],
  ['cognitive', 'redundant-entry', ['3.3.7']],
  ['cognitive', 'authentication', ['3.3.8']],
  ['parsing', 'parsing', ['4.1.1']],
];
