/** Shapes of the generated catalog data (vpat-chapters.data.ts, act-rules.data.ts); WCAG's are the kernel's (core/catalog/). */
export interface StandardData {
  id: string;
  label: string;
  report_heading: string;
  url: string;
}

export interface ChapterData {
  /** OpenACR chapter key, e.g. `hardware` or `en_301_549_software`. */
  id: string;
  /** `508` or `eu`. */
  standard: string;
  label: string;
  criteria: Array<{ id: string; title: string }>;
}

export interface TermData {
  id: string;
  label: string;
  description: string;
}

/** One W3C ACT rule (act-rules.data.ts): the criteria it bears on and the axe-core rules implementing it. */
export interface ActRuleData {
  id: string;
  name: string;
  /** Still a proposed rule, not yet approved by the ACT task force. */
  proposed: boolean;
  /** `primary`: the rule's outcome decides the criterion; `secondary`: related (stricter or looser). */
  criteria: ReadonlyArray<{ criterion: string; role: 'primary' | 'secondary' }>;
  axeRules: readonly string[];
}
