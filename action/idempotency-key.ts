import crypto from 'node:crypto';
import type { ActionInputs } from './inputs.js';

/**
 * The Idempotency-Key of one request: repository + GITHUB_RUN_ID + GITHUB_RUN_ATTEMPT + site + sha + a
 * digest of the body. Every retry of a request, and the step executed again within the same attempt with
 * the same results, sends the same key, so the service replays its first answer instead of storing a second
 * scan or deploy event. The body digest keeps two different uploads of one run (a browser matrix, two steps
 * for one site) from colliding with `422 idempotency_key_reused`. A re-run of the job is a new attempt: it
 * scanned again (the scan body records `run_attempt`) and the gate is evaluated afresh. Outside Actions
 * (no run id) every invocation is its own run. The service keeps keys for 24 hours.
 *
 * `basis` is what the answer depends on besides the body. For the gate it is the scan this step submitted:
 * the trigger body of two jobs of a browser matrix is the same (site, sha, thresholds), and without the
 * scan id the second job would get the first job's decision replayed, never judging its own results.
 */
export function idempotencyKey(
  inputs: ActionInputs,
  request: string,
  body: unknown,
  basis: string | null = null,
): string {
  const run = inputs.runId
    ? `${inputs.repository ?? ''}/${inputs.runId}/${inputs.runAttempt ?? 1}`
    : `local/${crypto.randomUUID()}`;
  const bodyDigest = crypto
    .createHash('sha256')
    .update(JSON.stringify(body) + (basis === null ? '' : `\n${basis}`))
    .digest('hex');
  const digest = crypto
    .createHash('sha256')
    .update(`${run}|${inputs.siteId}|${inputs.sha}|${request}|${bodyDigest}`)
    .digest('hex');
  return `a11y-gate-action-${request}-${digest.slice(0, 40)}`;
}
