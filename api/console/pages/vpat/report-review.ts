import { isUndecided } from '../../../domain/vpat/derive.js';
import type { Conformance } from '../../../domain/vpat/editions.js';
import { CONFORMANCE_LABELS } from '../../../domain/vpat/render/html.js';
import { behindSummary, isBehind } from '../../../domain/vpat/status.js';
import type { ReportCriterion, VpatReport } from '../../../domain/vpat/report.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { signerOf, type Visitor } from '../../session.js';
import { csrfField, errorSummary, textField, type FieldProblem } from '../../views/parts.js';
import { evidenceText } from '../../views/report-rows.js';

/** What a person may grant a row (not-evaluated is what the row already says while it waits). */
const GRANTS: Conformance[] = ['supports', 'partially-supports', 'does-not-support', 'not-applicable'];

/** What one row of the batch form held when it was sent. */
export interface RowValues {
  decision: string;
  remarks: string;
}

/** A rejected review or publish form, shown again with what was typed and what to correct. */
export interface ReviewState {
  target: 'review' | 'publish';
  /** The rows of the review form by their number (the row's index in the report). */
  rows: ReadonlyMap<number, RowValues>;
  author: string;
  problems: FieldProblem[];
}

/** Only the automated evidence of a row whose rules ran everywhere and found nothing can be confirmed. */
const confirmable = (c: ReportCriterion) => c.basis === 'rules-passed' && c.related.length === 0;

function decisionChoices(c: ReportCriterion, n: number, chosen: string, problem?: FieldProblem): Html {
  const options: Array<[string, string]> = [
    ...(confirmable(c)
      ? [
          [
            'confirm',
            'Confirm the automated evidence (Supports: the rules ran on every page and found nothing)',
          ],
        ]
      : []),
    ...GRANTS.map((g): [string, string] => [g, CONFORMANCE_LABELS[g]]),
    ['', 'Leave for later'],
  ] as Array<[string, string]>;
  const idOf = (value: string, i: number) =>
    i === 0 ? `decision-${n}` : `decision-${n}-${value || 'later'}`;
  return markup`<fieldset aria-describedby=${problem ? `decision-${n}-error` : undefined}>
    <legend>Decision on ${c.id}</legend>
    ${problem ? markup`<span class="field-error" id=${`decision-${n}-error`}>Error: ${problem.message}</span>` : null}
    ${options.map(
      ([value, label], i) =>
        markup`<div class="choice">
          <input
            type="radio"
            name=${`decision-${n}`}
            id=${idOf(value, i)}
            value=${value}
            checked=${chosen === value}
          />
          <label for=${idOf(value, i)}>${label}</label>
        </div>`,
    )}
  </fieldset>`;
}

/** One waiting row: what the evidence says, and (for a manager of a draft) its part of the batch form. */
function queueRow(c: ReportCriterion, n: number, editable: boolean, state?: ReviewState): Html {
  const mine = state?.target === 'review' ? state.rows.get(n) : undefined;
  const problem = (name: string) => state?.problems.find((p) => p.field === `${name}-${n}`);
  return markup`<section class="review-row" aria-labelledby=${`q-${n}`}>
    <h3 id=${`q-${n}`}>${c.id} ${c.title}</h3>
    <p>
      Now: ${CONFORMANCE_LABELS[c.conformance]} (${c.basis}). Evidence: ${evidenceText(c)}.
      ${c.remarks ? markup`<br />${c.remarks}` : null}
    </p>
    ${c.suggestion ? markup`<p class="notice">${c.suggestion.reason}</p>` : null}
    ${
      editable
        ? markup`<input type="hidden" name=${`criterion-${n}`} value=${c.id} />
          ${decisionChoices(c, n, mine?.decision ?? '', problem('decision'))}
          ${textField({ id: `remarks-${n}`, name: `remarks-${n}`, label: `Remarks on ${c.id}`, hint: 'Shown in the report beside the level; needed with a decision.', value: mine?.remarks ?? '', problem: problem('remarks'), multiline: true, maxLength: 5000, required: false })}`
        : null
    }
  </section>`;
}

/** Every waiting row in one form: one submission records all its decisions as one new version. */
function reviewForm(r: VpatReport, queue: ReportCriterion[], v: Visitor, state?: ReviewState): Html {
  const mine = state?.target === 'review' ? state : undefined;
  return markup`<form method="post" action=${`/reports/${r.id}/review`} class="stack">
    ${csrfField(v.csrf)} ${mine ? errorSummary(mine.problems) : null}
    ${queue.map((c) => queueRow(c, r.criteria.indexOf(c), true, mine))}
    ${signerField(v, { id: 'author', label: 'Reviewer', hint: 'Your name, recorded with every decision of this submission.', value: mine?.author, problem: mine?.problems.find((p) => p.field === 'author') })}
    <div><button type="submit">Record these decisions as a new version</button></div>
  </form>`;
}

/**
 * The name of the person who reviews or signs: typed by that person (it starts empty), or, for a session
 * that says who it is (GitHub), that name, shown and not editable: the action reads it from the session.
 */
function signerField(
  v: Visitor,
  o: { id: string; label: string; hint: string; value?: string; problem?: FieldProblem },
): Html {
  const signer = signerOf(v);
  if (signer) {
    return markup`<div class="field">
      <label for=${o.id}>${o.label}</label>
      <span class="hint" id=${`${o.id}-hint`}>${o.hint} Signed in with GitHub: your login is used.</span>
      <input type="text" id=${o.id} name=${o.id} value=${signer} readonly aria-describedby=${`${o.id}-hint`} />
    </div>`;
  }
  return textField({ ...o, name: o.id, value: o.value ?? '', maxLength: 200 });
}

function publishForm(r: VpatReport, v: Visitor, state?: ReviewState): Html {
  const mine = state?.target === 'publish' ? state : undefined;
  const newer = r.behind?.results ?? 0;
  return markup`<form method="post" action=${`/reports/${r.id}/publish`} class="stack">
    ${csrfField(v.csrf)}
    ${signerField(v, { id: 'publisher', label: 'Published by', hint: 'Your name: the person who signs the final report.', value: mine?.author, problem: mine?.problems.find((p) => p.field === 'publisher') })}
    ${
      newer > 0
        ? markup`<div class="field">
            <div class="choice">
              <input type="checkbox" id="publish-behind" name="publish_behind" value="yes" aria-describedby="publish-behind-hint" />
              <label for="publish-behind">Publish as it is, without the ${newer === 1 ? 'result' : `${newer} results`} recorded since this version was made</label>
            </div>
            <span class="hint" id="publish-behind-hint">The final report says what it was published without. Otherwise make the next version from the newest evidence first.</span>
          </div>`
        : null
    }
    <div><button type="submit">Publish the final report</button></div>
  </form>`;
}

function queueSection(r: VpatReport, queue: ReportCriterion[], v: Visitor, state?: ReviewState): Html {
  if (queue.length === 0)
    return markup`<p>Nothing is waiting: every row has an answer a person or the evidence settled.</p>`;
  if (!v.user.scopes.includes('manage') || r.status !== 'draft')
    return markup`${queue.map((c) => queueRow(c, r.criteria.indexOf(c), false))}`;
  return markup`<p>
      Decide the rows you can and leave the others for later: one submission records all its decisions as
      one new version of the report, which carries every earlier decision forward.
    </p>
    ${reviewForm(r, queue, v, state)}`;
}

/** The review queue and publication: what a person still has to do before the report can be signed. */
export function reviewSection(r: VpatReport, v: Visitor, state?: ReviewState): Html {
  const publishProblems = state?.target === 'publish' ? errorSummary(state.problems) : null;
  if (r.status === 'final') {
    return markup`<h2 id="publish">Published</h2>
      ${publishProblems}
      <p>Published by ${r.published?.by ?? '—'} on ${r.published?.at.slice(0, 10) ?? '—'}: this version is final. A change needs a new report.</p>
      ${
        isBehind(r.published?.behind)
          ? markup`<p>It was published as it was, without the evidence recorded after it was made (${behindSummary(r.published!.behind!)}).</p>`
          : null
      }`;
  }
  const queue = r.criteria.filter(isUndecided);
  const manage = v.user.scopes.includes('manage');
  return markup`<h2 id="queue">Waiting for a person (${queue.length})</h2>
    ${!manage ? markup`<p>Deciding rows and publishing need a key with the “manage” scope.</p>` : null}
    ${queueSection(r, queue, v, state)}
    <h2 id="publish">Publish</h2>
    ${publishProblems}
    ${
      queue.length
        ? markup`<p>Publishing becomes possible when nothing is waiting for a person.</p>`
        : manage
          ? publishForm(r, v, state)
          : markup`<p>Nothing is waiting: a key with the “manage” scope can publish this report.</p>`
    }`;
}
