import type { DeployEvent, GateIssue } from '../../../../core/gate/deploy-event.js';
import {
  DEFAULT_WAIVER_REASON_CATEGORY,
  WAIVER_REASON_CATEGORIES,
  type WaiverReasonCategory,
} from '../../../domain/waivers/reason-category.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { csrfField, errorSummary, type FieldProblem } from '../../views/parts.js';

/** A rejected waive form, shown again with what was typed and what to correct. */
export interface WaiveState {
  fingerprint: string;
  values: { reason: string; expires: string; category: string };
  problems: FieldProblem[];
}

/** How the accessibility statement lists a waiver of each category (docs/statement.md). */
const CATEGORY_LABELS: Record<WaiverReasonCategory, string> = {
  'non-compliance': 'Not fixed yet: to be fixed by the end date',
  'disproportionate-burden': 'A disproportionate burden: the reason is its assessment',
  'outside-scope': 'Outside the scope of the applicable legislation',
};

/**
 * The waive form of one new issue, folded in a disclosure (no script needed). Field ids carry the
 * issue's position, so the error summary links to the right field.
 */
export function waiveForm(
  e: DeployEvent,
  issue: GateIssue,
  n: number,
  csrf: string,
  state?: WaiveState,
): Html {
  const mine = state?.fingerprint === issue.fingerprint ? state : undefined;
  const id = (name: string) => `${name}-${n}`;
  const problem = (name: string) => mine?.problems.find((p) => p.field === name);
  const fieldError = (name: string) => {
    const p = problem(name);
    return p ? markup`<span class="field-error" id=${id(`${name}-error`)}>Error: ${p.message}</span>` : null;
  };
  const describedBy = (name: string, hint: string) =>
    [hint, problem(name) ? id(`${name}-error`) : ''].filter(Boolean).join(' ');
  return markup`<details open=${mine !== undefined}>
    <summary>Waive this issue</summary>
    ${mine ? errorSummary(mine.problems.map((p) => ({ field: id(p.field), message: p.message }))) : null}
    <form method="post" action=${`/deploys/${e.id}/waive`} class="stack">
      ${csrfField(csrf)}
      <input type="hidden" name="fingerprint" value=${issue.fingerprint} />
      <div class="field">
        <label for=${id('reason')}>Reason</label>
        <span class="hint" id=${id('reason-hint')}
          >Why this issue may ship for now, and the plan to fix it.</span
        >
        ${fieldError('reason')}
        <textarea
          id=${id('reason')}
          name="reason"
          required
          maxlength="2000"
          aria-describedby=${describedBy('reason', id('reason-hint'))}
          aria-invalid=${problem('reason') ? 'true' : undefined}
        >
${mine?.values.reason ?? ''}</textarea>
      </div>
      <div class="field">
        <label for=${id('expires')}>Ends on</label>
        <span class="hint" id=${id('expires-hint')}
          >A date within the next 365 days (the waiver ends at the end of that day, UTC).</span
        >
        ${fieldError('expires')}
        <input
          type="date"
          id=${id('expires')}
          name="expires"
          required
          value=${mine?.values.expires ?? ''}
          aria-describedby=${describedBy('expires', id('expires-hint'))}
          aria-invalid=${problem('expires') ? 'true' : undefined}
        />
      </div>
      <div class="field">
        <label for=${id('category')}>Why it is accepted</label>
        <span class="hint" id=${id('category-hint')}>How the site’s accessibility statement lists it.</span>
        <select id=${id('category')} name="reason_category" aria-describedby=${id('category-hint')}>
          ${WAIVER_REASON_CATEGORIES.map(
            (c) =>
              markup`<option value=${c} selected=${(mine?.values.category ?? DEFAULT_WAIVER_REASON_CATEGORY) === c}>
                ${CATEGORY_LABELS[c]}
              </option>`,
          )}
        </select>
      </div>
      <div><button type="submit">Waive ${issue.rule} on this element</button></div>
    </form>
  </details>`;
}
