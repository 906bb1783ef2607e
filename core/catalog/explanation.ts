/**
 * One finding explained for whoever fixes it (an agent, a person): the rule in plain words, the element,
 * how to fix it, and the WCAG criteria it bears on with the test procedure a person follows for each.
 * From axe-core's own rule metadata and the WCAG data the kernel ships. Pure.
 */
import { fixHeading, fixSteps } from '../gate/finding-text.js';
import { criteriaFromAxeTags } from '../scans/wcag-tags.js';
import { TEXT_RULES } from '../claims/verification.js';
import { procedureFor, type Procedure } from './procedures.js';
import { WCAG_CRITERIA } from './wcag-criteria.data.js';
import type { WcagLevel } from './wcag-types.js';

/** What axe-core says of a rule (`axe.getRules()`). */
export interface AxeRuleMeta {
  ruleId: string;
  description: string;
  help: string;
  helpUrl: string;
  tags: readonly string[];
}

/** The element a finding is on, as the scan reported it. */
export interface ExplainedElement {
  page_url: string;
  selector: string;
  html: string;
  /** `path:line` in the repository, when the scan located it. */
  location: string | null;
  /** axe-core's failure summary for this element. */
  message: string;
}

export interface ExplainedCriterion {
  id: string;
  title: string;
  level: WcagLevel | null;
  url: string | null;
  /** How a person tests the criterion (A and AA criteria), else null. */
  procedure: Procedure | null;
}

export interface Explanation {
  rule: string;
  /** The rule in one line ("Images must have alternative text"). */
  summary: string;
  description: string;
  help_url: string;
  criteria: ExplainedCriterion[];
  /** Whether one step is enough ("Fix one of these") or all are needed, and the steps. */
  fix: { heading: string; steps: string[] };
  /** True for rules whose passing text a person must still judge (core/claims TEXT_RULES). */
  needs_person_review: boolean;
  element: ExplainedElement | null;
}

function criterion(id: string): ExplainedCriterion {
  const c = WCAG_CRITERIA.find((w) => w.id === id);
  return {
    id,
    title: c?.title ?? `WCAG ${id}`,
    level: c?.level ?? null,
    url: c?.url ?? null,
    procedure: procedureFor(id) ?? null,
  };
}

/** A rule explained, on one element when a finding is given (its failure summary gives the steps). */
export function explainRule(rule: AxeRuleMeta, element: ExplainedElement | null = null): Explanation {
  const message = element?.message ?? null;
  const steps = fixSteps(message);
  return {
    rule: rule.ruleId,
    summary: rule.help,
    description: rule.description,
    help_url: rule.helpUrl,
    criteria: criteriaFromAxeTags(rule.tags).map(criterion),
    fix: {
      heading: fixHeading(message),
      steps: steps.length > 0 ? steps : [`${rule.help}: see ${rule.helpUrl}`],
    },
    needs_person_review: TEXT_RULES.has(rule.ruleId),
    element,
  };
}
