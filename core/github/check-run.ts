/**
 * The state of the GitHub check run that shows a deploy event: `pending` until the App posts it,
 * `completed` once posted, `failed` when GitHub refused it, `skipped` when there is nothing to post to.
 * The one definition: the deploy schema, the store, the gate service and the App all use it.
 */
export const CHECK_RUN_STATUSES = ['pending', 'completed', 'failed', 'skipped'] as const;
export type CheckRunStatus = (typeof CHECK_RUN_STATUSES)[number];

/** A change of the check-run state, as the App reports it (only the fields it knows are set). */
export interface CheckRunUpdate {
  status: CheckRunStatus;
  id?: number;
  url?: string;
  error?: string;
}
