/**
 * The impact levels of an accessibility issue, most severe first (axe-core's four; other engines' levels
 * are mapped onto them on import). The one list: schemas use `z.enum(IMPACTS)`, the gate and the reports
 * iterate it in this order.
 */
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
export type Impact = (typeof IMPACTS)[number];

/** What an issue asks for: a fix (`violation`), or a person's review (`incomplete`, axe's "needs review"). */
export const ISSUE_KINDS = ['violation', 'incomplete'] as const;
export type IssueKind = (typeof ISSUE_KINDS)[number];
