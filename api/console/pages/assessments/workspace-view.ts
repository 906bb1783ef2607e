import { OUTCOMES, type Outcome } from '../../../domain/vpat/assessments/assessment.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { csrfField, errorSummary, type FieldProblem } from '../../views/parts.js';
import type { assessmentDetail } from '../../../services/assessments/assessments.js';
import type { criterionWorkspace } from '../../../services/assessments/results.js';

/** The parts of the assessment workspace page (workspace.ts puts them together). */

export type Detail = Awaited<ReturnType<typeof assessmentDetail>>;
export type Workspace = Awaited<ReturnType<typeof criterionWorkspace>>;

export const OUTCOME_LABELS: Record<Outcome, string> = {
  passed: 'Passed',
  failed: 'Failed',
  cantTell: 'Cannot tell',
  inapplicable: 'Not applicable',
  untested: 'Not tested',
};

export function progressView(d: Detail): Html {
  const p = d.progress;
  return markup`<p>
    <label for="progress">${p.decided} of ${p.criteria} criteria decided</label>
    <progress id="progress" max=${p.criteria} value=${p.decided}>${p.decided} of ${p.criteria}</progress>
    <br />Passed ${p.passed}, failed ${p.failed}, not applicable ${p.inapplicable}.
  </p>`;
}

export function sampleView(d: Detail): Html {
  return markup`<ol>
    ${d.sample.pages.map((p) => markup`<li><code>${p.url}</code> (${p.source === 'chosen' ? 'chosen' : 'drawn at random'})</li>`)}
  </ol>
  ${d.sample.seed === null ? null : markup`<p>Random pages drawn with seed ${d.sample.seed}.</p>`}`;
}

export function criteriaNav(
  d: Detail,
  current: string,
  criteria: ReadonlyArray<{ id: string; title: string }>,
): Html {
  const answered = new Set(d.results.map((r) => r.criterion));
  return markup`<nav aria-label="Criteria">
    <ol class="criteria-nav">
      ${criteria.map(
        (c) =>
          markup`<li>
            <a href=${`/assessments/${d.id}?criterion=${c.id}#criterion`} aria-current=${c.id === current ? 'page' : undefined}
              >${c.id} ${c.title}</a
            >${answered.has(c.id) ? ' (results recorded)' : ''}
          </li>`,
      )}
    </ol>
  </nav>`;
}

export function procedureView(w: Workspace): Html {
  return markup`<dl class="facts">
    <dt>What to check</dt>
    <dd>${w.procedure.check}</dd>
    <dt>How</dt>
    <dd>${w.procedure.how}</dd>
    <dt>Tools</dt>
    <dd>${w.procedure.tools}</dd>
    <dt>Fails when</dt>
    <dd>${w.procedure.fails}</dd>
  </dl>`;
}

export function evidenceView(w: Workspace): Html {
  const automated =
    w.automated.length === 0
      ? markup`<p>No automated result for this criterion on the sampled pages.</p>`
      : markup`<ul>
          ${w.automated.map((a) => markup`<li><code>${a.page}</code>: ${a.rule}, ${a.issues} ${a.kind === 'violation' ? 'violation(s)' : 'to review'}</li>`)}
        </ul>`;
  const review =
    w.review_items.length === 0
      ? markup`<p>No needs-review result for this criterion on the sampled pages.</p>`
      : markup`<ul>
          ${w.review_items.map((r) => markup`<li><code>${r.page}</code>, ${r.rule} at <code>${r.selector ?? '(no selector)'}</code>: ${r.message ?? ''}</li>`)}
        </ul>`;
  return markup`<h3>Automated evidence</h3>
    ${automated}
    <h3>Review items (axe-core could not decide)</h3>
    <p>Look at each while you test; your outcome for the page answers them.</p>
    ${review}`;
}

function outcomeRow(n: number, label: string, r: Workspace['results'][number] | undefined): Html {
  return markup`<fieldset>
    <legend>${label}</legend>
    <input type="hidden" name=${`etag-${n}`} value=${r?.etag ?? ''} />
    <div class="field">
      <label for=${`outcome-${n}`}>Outcome</label>
      <select id=${`outcome-${n}`} name=${`outcome-${n}`}>
        <option value="" selected=${!r}>(no result)</option>
        ${OUTCOMES.map((o) => markup`<option value=${o} selected=${r?.outcome === o}>${OUTCOME_LABELS[o]}</option>`)}
      </select>
    </div>
    <div class="field">
      <label for=${`notes-${n}`}>Notes</label>
      <textarea id=${`notes-${n}`} name=${`notes-${n}`} maxlength="5000">${r?.notes ?? ''}</textarea>
    </div>
  </fieldset>`;
}

export function resultForm(
  d: Detail,
  w: Workspace,
  csrf: string,
  tester: string,
  problems: FieldProblem[],
): Html {
  const byPage = new Map(w.results.map((r) => [r.page, r]));
  return markup`<form method="post" action=${`/assessments/${d.id}/results`} class="stack">
    ${errorSummary(problems)} ${csrfField(csrf)}
    <input type="hidden" name="criterion" value=${w.criterion} />
    ${outcomeRow(0, 'The whole sample', byPage.get(null))}
    ${d.sample.pages.map((p, i) => outcomeRow(i + 1, p.url, byPage.get(p.url)))}
    <div class="field">
      <label for="tester">Tester</label>
      <input type="text" id="tester" name="tester" required maxlength="200" value=${tester} />
    </div>
    <div class="actions">
      <button type="submit" name="next" value="1">Save and go to the next criterion</button>
      <button type="submit" name="next" value="0">Save</button>
    </div>
  </form>`;
}

function historyLine(h: Workspace['history'][number]): string {
  const before = h.before ? OUTCOME_LABELS[h.before.outcome] : 'no result';
  const notes = h.after.notes ? `: ${h.after.notes}` : '';
  return (
    `${h.at.slice(0, 16).replace('T', ' ')} UTC, ${h.by}, ${h.page ?? 'the whole sample'}: ` +
    `${before} → ${OUTCOME_LABELS[h.after.outcome]} (tester ${h.after.tester})${notes}`
  );
}

export function historyView(w: Workspace): Html {
  if (w.history.length === 0) return markup`<p>No result recorded yet.</p>`;
  return markup`<ol>
    ${w.history.map((h) => markup`<li>${historyLine(h)}</li>`)}
  </ol>`;
}
