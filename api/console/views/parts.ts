import { markup, type Html } from '../../../core/text/html.js';

export function impactBadge(impact: string | null): Html {
  const name = impact ?? 'unknown';
  return markup`<span class=${`badge ${name}`}>${name}</span>`;
}

export function decisionBadge(passed: boolean): Html {
  return markup`<span class=${`badge ${passed ? 'passed' : 'failed'}`}>${passed ? 'passed' : 'failed'}</span>`;
}

export function shortSha(sha: string | null): Html | string {
  return sha ? markup`<code title=${sha}>${sha.slice(0, 12)}</code>` : '—';
}

/** A timestamp as people read it, with the exact value machine-readable. */
export function when(iso: string): Html {
  return markup`<time datetime=${iso}>${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** Wide tables scroll inside their own box on narrow screens instead of widening the page. */
export function tableWrap(label: string, table: Html): Html {
  return markup`<div class="table-wrap" role="region" aria-label=${label} tabindex="0">${table}</div>`;
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** The list of what to correct, linked to each field, announced as the page's first content. */
export function errorSummary(problems: FieldProblem[]): Html | null {
  if (problems.length === 0) return null;
  return markup`<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
    <h2 id="error-summary-title">There is a problem</h2>
    <ul>
      ${problems.map((p) => markup`<li><a href=${`#${p.field}`}>${p.message}</a></li>`)}
    </ul>
  </div>`;
}

export function csrfField(csrf: string): Html {
  return markup`<input type="hidden" name="_csrf" value=${csrf} />`;
}

export function readableCount(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

export interface TextFieldOptions {
  id: string;
  name: string;
  label: string;
  hint: string;
  value: string;
  problem?: FieldProblem;
  multiline?: boolean;
  maxLength: number;
  /** Default true; false where a field may stay empty (a row of a batch left for later). */
  required?: boolean;
}

/** A labelled, required text field with its hint and, after a rejected form, its error tied to it. */
export function textField(o: TextFieldOptions): Html {
  const hintId = `${o.id}-hint`;
  const errorId = `${o.id}-error`;
  const describedBy = o.problem ? `${hintId} ${errorId}` : hintId;
  const invalid = o.problem ? 'true' : undefined;
  const required = o.required ?? true;
  return markup`<div class="field">
    <label for=${o.id}>${o.label}</label>
    <span class="hint" id=${hintId}>${o.hint}</span>
    ${o.problem ? markup`<span class="field-error" id=${errorId}>Error: ${o.problem.message}</span>` : null}
    ${
      o.multiline
        ? markup`<textarea id=${o.id} name=${o.name} required=${required} maxlength=${o.maxLength} aria-describedby=${describedBy} aria-invalid=${invalid}>${o.value}</textarea>`
        : markup`<input type="text" id=${o.id} name=${o.name} required=${required} maxlength=${o.maxLength} value=${o.value} aria-describedby=${describedBy} aria-invalid=${invalid} />`
    }
  </div>`;
}

/** A labelled choice of a GET form (a filter), its options as [value, text] pairs. */
export function selectField(
  o: { id: string; name: string; label: string; value: string },
  options: Array<[string, string]>,
): Html {
  return markup`<div class="field">
    <label for=${o.id}>${o.label}</label>
    <select id=${o.id} name=${o.name}>
      ${options.map(([v, text]) => markup`<option value=${v} selected=${v === o.value}>${text}</option>`)}
    </select>
  </div>`;
}
