import type { Request, Response } from 'express';
import { DomainError } from '../../../domain/errors.js';
import { isUndecided } from '../../../domain/vpat/derive.js';
import type { Conformance } from '../../../domain/vpat/editions.js';
import { CONFORMANCE_LABELS } from '../../../domain/vpat/render/html.js';
import type { ReportCriterion, VpatReport } from '../../../domain/vpat/report.js';
import { PublishBody, ReviewBody } from '../../../schemas/vpat/review.js';
import type { ApiContext } from '../../../context.js';
import { VpatReviewService } from '../../../services/vpat/review.js';
import { field } from '../../guard.js';
import { markup, type Html } from '../../html.js';
import { redirectAfterPost } from '../../respond.js';
import type { Visitor } from '../../session.js';
import { csrfField, errorSummary, textField, type FieldProblem } from '../../views/parts.js';
import { evidenceText } from '../../views/report-rows.js';

/** What a person may grant a row (not-evaluated is what the row already says while it waits). */
const GRANTS: Conformance[] = ['supports', 'partially-supports', 'does-not-support', 'not-applicable'];

/** A rejected review or publish form, shown again with what was typed and what to correct. */
export interface ReviewState {
  /** The row the form was about, or `publish`. */
  target: string;
  values: { decision: string; remarks: string; author: string };
  problems: FieldProblem[];
}

/** Only the automated evidence of a row whose rules ran everywhere and found nothing can be confirmed. */
const confirmable = (c: ReportCriterion) => c.basis === 'rules-passed' && c.related.length === 0;

function decisionChoices(c: ReportCriterion, n: number, chosen: string, invalid: boolean): Html {
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
  ] as Array<[string, string]>;
  return markup`<fieldset aria-describedby=${invalid ? `decision-${n}-error` : undefined}>
    <legend>Decision</legend>
    ${invalid ? markup`<span class="field-error" id=${`decision-${n}-error`}>Error: choose a decision.</span>` : null}
    ${options.map(
      ([value, label], i) =>
        markup`<div class="choice">
          <input
            type="radio"
            name="decision"
            id=${i === 0 ? `decision-${n}` : `decision-${n}-${value}`}
            value=${value}
            required
            checked=${chosen === value}
          />
          <label for=${i === 0 ? `decision-${n}` : `decision-${n}-${value}`}>${label}</label>
        </div>`,
    )}
  </fieldset>`;
}

/** One waiting row: what the evidence says, and the form that settles it. */
function queueRow(r: VpatReport, c: ReportCriterion, n: number, v: Visitor, state?: ReviewState): Html {
  const mine = state?.target === c.id ? state : undefined;
  const problem = (name: string) => mine?.problems.find((p) => p.field === `${name}-${n}`);
  const form = markup`<form method="post" action=${`/reports/${r.id}/review`} class="stack">
    ${csrfField(v.csrf)} <input type="hidden" name="criterion" value=${c.id} />
    <input type="hidden" name="n" value=${String(n)} />
    ${decisionChoices(c, n, mine?.values.decision ?? '', problem('decision') !== undefined)}
    ${textField({ id: `remarks-${n}`, name: 'remarks', label: 'Remarks', hint: 'Shown in the report beside the level.', value: mine?.values.remarks ?? '', problem: problem('remarks'), multiline: true, maxLength: 5000 })}
    ${textField({ id: `author-${n}`, name: 'author', label: 'Reviewer', hint: 'Recorded with the decision.', value: mine?.values.author ?? v.user.name, problem: problem('author'), maxLength: 200 })}
    <div><button type="submit">Record the decision on ${c.id}</button></div>
  </form>`;
  return markup`<section class="review-row" aria-labelledby=${`q-${n}`}>
    <h3 id=${`q-${n}`}>${c.id} ${c.title}</h3>
    ${mine ? errorSummary(mine.problems) : null}
    <p>
      Now: ${CONFORMANCE_LABELS[c.conformance]} (${c.basis}). Evidence: ${evidenceText(c)}.
      ${c.remarks ? markup`<br />${c.remarks}` : null}
    </p>
    ${v.user.scopes.includes('manage') && r.status === 'draft' ? form : null}
  </section>`;
}

function publishForm(r: VpatReport, v: Visitor, state?: ReviewState): Html {
  const mine = state?.target === 'publish' ? state : undefined;
  return markup`<form method="post" action=${`/reports/${r.id}/publish`} class="stack">
    ${csrfField(v.csrf)}
    ${textField({ id: 'publisher', name: 'publisher', label: 'Published by', hint: 'The person who signs the final report.', value: mine?.values.author ?? v.user.name, problem: mine?.problems.find((p) => p.field === 'publisher'), maxLength: 200 })}
    <div><button type="submit">Publish the final report</button></div>
  </form>`;
}

/** The review queue and publication: what a person still has to do before the report can be signed. */
export function reviewSection(r: VpatReport, v: Visitor, state?: ReviewState): Html {
  const publishProblems = state?.target === 'publish' ? errorSummary(state.problems) : null;
  if (r.status === 'final') {
    return markup`<h2 id="publish">Published</h2>
      ${publishProblems}
      <p>Published by ${r.published?.by ?? '—'} on ${r.published?.at.slice(0, 10) ?? '—'}: this version is final. A change needs a new report.</p>`;
  }
  const queue = r.criteria.filter(isUndecided);
  const manage = v.user.scopes.includes('manage');
  return markup`<h2 id="queue">Waiting for a person (${queue.length})</h2>
    ${!manage ? markup`<p>Deciding rows and publishing need a key with the “manage” scope.</p>` : null}
    ${
      queue.length
        ? markup`<p>Each decision makes a new version of the report that carries every earlier decision forward.</p>
          ${queue.map((c) => queueRow(r, c, r.criteria.indexOf(c), v, state))}`
        : markup`<p>Nothing is waiting: every row has an answer a person or the evidence settled.</p>`
    }
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

type ShowAgain = (state: ReviewState, status: number) => Promise<void>;

/** Problems the service found (422 pointers, 409) as the form's own problems. */
function serviceProblems(err: unknown, fieldId: string): FieldProblem[] | undefined {
  if (!(err instanceof DomainError) || (err.kind !== 'invalid' && err.kind !== 'conflict')) return undefined;
  const details = err.errors?.length ? err.errors.map((e) => e.detail) : [err.message];
  return details.map((message) => ({ field: fieldId, message }));
}

/** `POST /reports/:id/review`: one row decided (or its evidence confirmed), as `POST /api/v1/vpat/:id/review`. */
export function reviewAction(
  ctx: ApiContext,
  showAgain: (req: Request, res: Response, v: Visitor) => ShowAgain,
) {
  const reviews = new VpatReviewService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const criterion = field(req, 'criterion');
    const values = {
      decision: field(req, 'decision'),
      remarks: field(req, 'remarks'),
      author: field(req, 'author'),
    };
    const n = Number(field(req, 'n')) || 0;
    const decision =
      values.decision === 'confirm'
        ? { criterion, confirm: true as const, remarks: values.remarks }
        : { criterion, conformance: values.decision, remarks: values.remarks };
    const parsed = ReviewBody.safeParse({ author: values.author, decisions: [decision] });
    const again = showAgain(req, res, v);
    const id = (name: string) => `${name}-${n}`;
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => {
        const key = i.path.at(-1);
        if (key === 'remarks')
          return { field: id('remarks'), message: 'Write the remarks shown in the report.' };
        if (key === 'author') return { field: id('author'), message: 'Give the reviewer’s name.' };
        return { field: id('decision'), message: 'Choose a decision.' };
      });
      return again({ target: criterion, values, problems }, 422);
    }
    try {
      const next = await reviews.review(v.user.org, actorOf(v), String(req.params.id), parsed.data);
      redirectAfterPost(
        res,
        `/reports/${encodeURIComponent(next.id)}?decided=${encodeURIComponent(criterion)}#queue`,
      );
    } catch (err) {
      const problems = serviceProblems(err, id('decision'));
      if (!problems) throw err;
      return again({ target: criterion, values, problems }, 422);
    }
  };
}

/** `POST /reports/:id/publish`: the final version, as `POST /api/v1/vpat/:id/publish`. */
export function publishAction(
  ctx: ApiContext,
  showAgain: (req: Request, res: Response, v: Visitor) => ShowAgain,
) {
  const reviews = new VpatReviewService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const values = { decision: '', remarks: '', author: field(req, 'publisher') };
    const parsed = PublishBody.safeParse({ publisher: values.author });
    const again = showAgain(req, res, v);
    if (!parsed.success) {
      const problems = [{ field: 'publisher', message: 'Give the name of the person who signs the report.' }];
      return again({ target: 'publish', values, problems }, 422);
    }
    try {
      const final = await reviews.publish(
        v.user.org,
        actorOf(v),
        String(req.params.id),
        parsed.data.publisher,
      );
      redirectAfterPost(res, `/reports/${encodeURIComponent(final.id)}?published=1`);
    } catch (err) {
      const problems = serviceProblems(err, 'publish');
      if (!problems) throw err;
      return again({ target: 'publish', values, problems }, 422);
    }
  };
}

const actorOf = (v: Visitor) => ({ keyId: v.user.keyId, name: v.user.name });
