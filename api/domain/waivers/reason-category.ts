/**
 * Why an issue is accepted, in the words an accessibility statement uses for its non-accessible content
 * (Implementing Decision (EU) 2018/1523): not yet fixed (non-compliance, until the waiver's end date), a
 * disproportionate burden (the waiver's reason is its assessment), or outside the scope of the applicable
 * legislation. Waivers made before the category existed are `non-compliance`: the claim that asks nothing of
 * the law.
 */
export const WAIVER_REASON_CATEGORIES = [
  'non-compliance',
  'disproportionate-burden',
  'outside-scope',
] as const;
export type WaiverReasonCategory = (typeof WAIVER_REASON_CATEGORIES)[number];

export const DEFAULT_WAIVER_REASON_CATEGORY: WaiverReasonCategory = 'non-compliance';
