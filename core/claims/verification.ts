/**
 * Verified fixes: a change names the issues it claims to fix (by fingerprint), and the scan after it
 * answers per claim, element by element. The claimed issues are paired with the new scan's violations and
 * passing elements of the same rules by the gate's own identity of issues (core/matching/matcher.ts), so
 * "the same element" means here what it means to the gate. Pure.
 */
import { matchIssues } from '../matching/matcher.js';
import { openingTag, textOf } from '../matching/element-identity.js';

/**
 * Rules that pass on the presence of a text whose meaning a machine cannot judge (an alt of "image", a
 * "Submit" label on a delete button): a fix of one is shown to a person, never verified by the scan alone.
 */
export const TEXT_RULES: ReadonlySet<string> = new Set([
  'image-alt',
  'input-image-alt',
  'area-alt',
  'object-alt',
  'svg-img-alt',
  'role-img-alt',
  'label',
  'select-name',
  'button-name',
  'link-name',
  'input-button-name',
  'summary-name',
  'document-title',
  'frame-title',
  'aria-command-name',
  'aria-dialog-name',
  'aria-input-field-name',
  'aria-meter-name',
  'aria-progressbar-name',
  'aria-tab-name',
  'aria-toggle-field-name',
  'aria-tooltip-name',
  'aria-treeitem-name',
]);

/** `not_rescanned`: the claimed issue's page was not in the new scan (it failed to load, or was not asked for). */
export const CLAIM_OUTCOMES = [
  'verified',
  'removed',
  'not_fixed',
  'needs_person',
  'unknown',
  'not_rescanned',
] as const;
export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];

/** An element as both scans report it: its issue identity and what the matcher compares. */
export interface ScannedElement {
  fingerprint: string;
  rule: string;
  /** The page's identity: its page key with the viewport (`viewportPageKey`), as fingerprints read it. */
  page: string;
  selector: string | null;
  html: string | null;
}

/** The scan after the change, on the claimed issues' pages. */
export interface Rescan {
  /** The pages it scanned (`viewportPageKey`); a claim on any other page is `not_rescanned`. */
  pages: readonly string[];
  violations: readonly ScannedElement[];
  /** axe-core's passing elements of (at least) the claimed rules. */
  passes: readonly ScannedElement[];
  /**
   * The pages whose passing elements the scan sent. Without them an element that is gone cannot be told
   * from one that passes on any text: a text rule's claim there goes to a person.
   */
  passPages: readonly string[];
}

/** The element's text a person judges: its accessible-name attributes, else its own text. */
export interface ElementText {
  html: string | null;
  text: string | null;
}

export interface ClaimAnswer {
  fingerprint: string;
  outcome: ClaimOutcome;
  /** One sentence saying why, for the agent and the person. */
  reason: string;
  rule?: string;
  page?: string;
  /** The element before the change and now (for `needs_person`, the text to accept beside the old). */
  before?: ElementText;
  after?: ElementText;
}

// The attributes that give an element its name, in the order a person reads them first.
const NAMING_ATTRIBUTES = ['aria-label', 'alt', 'title', 'value', 'aria-labelledby'];

/** The text an element offers for its name: a naming attribute, else its text; null when none. */
export function elementText(html: string | null): ElementText {
  if (!html) return { html, text: null };
  const tag = openingTag(html);
  const attrs = new Map(tag.attrs);
  const named = NAMING_ATTRIBUTES.find((a) => attrs.has(a));
  const text = named !== undefined ? attrs.get(named)! : textOf(html, tag.end);
  return { html, text: named !== undefined || text ? text : null };
}

type Side = { kind: 'violation' | 'pass'; element: ScannedElement };

function answer(claim: ScannedElement, outcome: ClaimOutcome, reason: string): ClaimAnswer {
  return { fingerprint: claim.fingerprint, outcome, reason, rule: claim.rule, page: claim.page };
}

/** A claimed issue the matcher paired with an element of the new scan. */
function paired(claim: ScannedElement, now: Side): ClaimAnswer {
  const before = elementText(claim.html);
  const after = elementText(now.element.html);
  if (now.kind === 'violation')
    return { ...answer(claim, 'not_fixed', `${claim.rule} still fails on the element.`), before, after };
  if (TEXT_RULES.has(claim.rule)) {
    const reason = `${claim.rule} passes, but it checks a text only a person can judge: accept the new text or reject it.`;
    return { ...answer(claim, 'needs_person', reason), before, after };
  }
  return { ...answer(claim, 'verified', `${claim.rule} now passes on the same element.`), before, after };
}

/**
 * Answers each claim (a fingerprint) against the issues of the earlier scan (`baseline`: every issue of
 * the claimed pages, so that something new of a claimed rule is told apart from the claimed issue) and
 * the scan after the change. Unknown fingerprints are `unknown`; an element that is gone is `removed`
 * only when nothing new of its rule appeared on its page, else `not_fixed`, and a text rule's only when
 * the page's passing elements were sent, else `needs_person`.
 */
export function verifyClaims(
  claims: readonly string[],
  baseline: readonly ScannedElement[],
  rescan: Rescan,
): ClaimAnswer[] {
  const byFingerprint = new Map<string, number>();
  baseline.forEach((b, i) => {
    if (!byFingerprint.has(b.fingerprint)) byFingerprint.set(b.fingerprint, i);
  });
  const claimed = claims.flatMap((c) => (byFingerprint.has(c) ? [baseline[byFingerprint.get(c)!]] : []));
  const rules = new Set(claimed.map((c) => c.rule));
  const pages = new Set(claimed.map((c) => c.page));
  const concerned = (e: ScannedElement) => rules.has(e.rule) && pages.has(e.page);
  // Compared on the claimed rules and pages only: the gate judges everything else as it always does.
  const before = baseline.filter(concerned);
  const head: Side[] = [
    ...rescan.violations.filter(concerned).map((element) => ({ kind: 'violation' as const, element })),
    ...rescan.passes.filter(concerned).map((element) => ({ kind: 'pass' as const, element })),
  ];
  const matching = matchIssues(
    head.map((h) => h.element),
    before,
  );
  // A violation no earlier issue pairs with is something new of its rule on its page.
  const newOn = new Set(
    head.flatMap((h, i) =>
      h.kind === 'violation' && matching.headToBaseline[i] < 0 ? [`${h.element.rule}|${h.element.page}`] : [],
    ),
  );
  const scanned = new Set(rescan.pages);
  const withPasses = new Set(rescan.passPages);
  return claims.map((fingerprint) => {
    const at = byFingerprint.get(fingerprint);
    if (at === undefined)
      return {
        fingerprint,
        outcome: 'unknown',
        reason: 'No issue of the earlier scan has this fingerprint.',
      };
    const claim = baseline[at];
    if (!scanned.has(claim.page))
      return answer(claim, 'not_rescanned', 'The new scan does not hold the page of this issue.');
    const h = matching.baselineToHead[before.indexOf(claim)];
    if (h >= 0) return paired(claim, head[h]);
    if (newOn.has(`${claim.rule}|${claim.page}`))
      return answer(
        claim,
        'not_fixed',
        `The element is gone, but a new ${claim.rule} issue appeared on the same page.`,
      );
    if (TEXT_RULES.has(claim.rule) && !withPasses.has(claim.page))
      return {
        ...answer(
          claim,
          'needs_person',
          `${claim.rule} is no longer reported, but the scan sent no passing elements of the page: only a person can tell whether the element is gone or passes on a text nobody read.`,
        ),
        before: elementText(claim.html),
      };
    return answer(claim, 'removed', `The element is gone and nothing new of ${claim.rule} is on the page.`);
  });
}
