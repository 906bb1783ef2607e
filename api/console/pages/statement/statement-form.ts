import type { Request } from 'express';
import type { AccessibilityStatement, AnswerField } from '../../../domain/statement/statement.js';
import { StatementAnswersBody, type StatementAnswersInput } from '../../../schemas/statement/requests.js';
import { field } from '../../guard.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { csrfField, errorSummary, textField, type FieldProblem } from '../../views/parts.js';

/** The statement page's form for a person's answers, and how the form reads back into answers. */

type TextAnswer = Exclude<AnswerField, 'method'>;

interface Question {
  field: TextAnswer;
  label: string;
  hint: string;
  maxLength: number;
  multiline?: boolean;
  /** What to correct when the value is refused. */
  fix: string;
}

const QUESTIONS: Question[] = [
  {
    field: 'entity',
    label: 'Organisation',
    hint: 'The organisation responsible for the service, as the statement names it.',
    maxLength: 200,
    fix: 'Name the organisation in at most 200 characters.',
  },
  {
    field: 'feedback',
    label: 'Feedback',
    hint: 'How people report an accessibility problem or ask for content in an accessible form, and how soon you answer.',
    maxLength: 2000,
    multiline: true,
    fix: 'Describe how people give feedback in at most 2,000 characters.',
  },
  {
    field: 'contact_email',
    label: 'Contact e-mail address',
    hint: 'At least one of e-mail, phone and web address.',
    maxLength: 320,
    fix: 'Enter an e-mail address, like accessibility@example.com.',
  },
  {
    field: 'contact_phone',
    label: 'Contact phone number',
    hint: 'Optional.',
    maxLength: 100,
    fix: 'Shorten it.',
  },
  {
    field: 'contact_url',
    label: 'Contact web address',
    hint: 'Optional: a page with a contact form, starting with https://.',
    maxLength: 2048,
    fix: 'Enter a web address starting with https://.',
  },
  {
    field: 'enforcement_body',
    label: 'Enforcement body',
    hint: 'The body people can turn to when your answer does not satisfy them.',
    maxLength: 300,
    fix: 'Name the body in at most 300 characters.',
  },
  {
    field: 'enforcement_url',
    label: 'Enforcement body’s web address',
    hint: 'Starting with https://.',
    maxLength: 2048,
    fix: 'Enter a web address starting with https://.',
  },
  {
    field: 'alternatives',
    label: 'Accessible alternatives',
    hint: 'What you offer instead of the content that is not accessible. Needed when anything is listed as not accessible.',
    maxLength: 5000,
    multiline: true,
    fix: 'Describe the alternatives in at most 5,000 characters.',
  },
  {
    field: 'evaluator',
    label: 'Third-party evaluator',
    hint: 'Only for an assessment by a third party; default: the testers of the report’s assessment.',
    maxLength: 200,
    fix: 'Name the evaluator in at most 200 characters.',
  },
  {
    field: 'next_review_on',
    label: 'Next review',
    hint: 'Optional: an earlier review than a year after publication.',
    maxLength: 10,
    fix: 'Choose a date after today and within a year.',
  },
];

const idOf = (f: AnswerField) => `answer-${f}`;

/** The form's values: what was typed (after a refusal) or the stored answers. */
export type AnswerValues = Record<AnswerField, string>;

export function storedValues(s: AccessibilityStatement): AnswerValues {
  const a = s.answers;
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v ?? ''])) as AnswerValues;
}

export function answerProblems(pointers: Array<{ field: string; detail?: string }>): FieldProblem[] {
  return pointers.map((p) => {
    const q = QUESTIONS.find((x) => x.field === p.field);
    return {
      field: idOf(p.field as AnswerField),
      message: q ? `${q.label}: ${p.detail ?? q.fix}` : (p.detail ?? ''),
    };
  });
}

/** The answers as the form sends them: an empty field clears its answer. */
export function readAnswers(req: Request): {
  values: AnswerValues;
  answers?: StatementAnswersInput;
  problems: FieldProblem[];
} {
  const values = Object.fromEntries(
    [...QUESTIONS.map((q) => q.field), 'method'].map((f) => [f, field(req, f).trim()]),
  ) as AnswerValues;
  const given = Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, k === 'method' ? v || undefined : v || null]),
  );
  const parsed = StatementAnswersBody.safeParse(given);
  if (parsed.success) return { values, answers: parsed.data, problems: [] };
  const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
  return {
    values,
    problems: answerProblems(
      fields.map((f) => ({ field: f, detail: QUESTIONS.find((q) => q.field === f)?.fix })),
    ),
  };
}

function methodChoice(value: string): Html {
  const choice = (v: string, label: string) => markup`<div class="choice">
    <input type="radio" id=${`method-${v}`} name="method" value=${v} checked=${value === v} />
    <label for=${`method-${v}`}>${label}</label>
  </div>`;
  return markup`<fieldset>
    <legend>How the statement was prepared</legend>
    ${choice('self-assessment', 'A self-assessment')}
    ${choice('third-party', 'An assessment by a third party')}
  </fieldset>`;
}

function question(q: Question, values: AnswerValues, problems: FieldProblem[]): Html {
  const problem = problems.find((p) => p.field === idOf(q.field));
  if (q.field === 'next_review_on') {
    const hintId = `${idOf(q.field)}-hint`;
    return markup`<div class="field">
      <label for=${idOf(q.field)}>${q.label}</label>
      <span class="hint" id=${hintId}>${q.hint}</span>
      ${problem ? markup`<span class="field-error" id=${`${idOf(q.field)}-error`}>Error: ${problem.message}</span>` : null}
      <input type="date" id=${idOf(q.field)} name=${q.field} value=${values[q.field]}
        aria-describedby=${problem ? `${hintId} ${idOf(q.field)}-error` : hintId}
        aria-invalid=${problem ? 'true' : undefined} />
    </div>`;
  }
  return textField({
    id: idOf(q.field),
    name: q.field,
    label: q.label,
    hint: q.hint,
    value: values[q.field],
    problem,
    multiline: q.multiline,
    maxLength: q.maxLength,
    required: false,
  });
}

/** Every answer in one form; saving it writes them all (an emptied field clears its answer). */
export function answersForm(
  s: AccessibilityStatement,
  csrf: string,
  values: AnswerValues,
  problems: FieldProblem[],
): Html {
  const [before, after] = [QUESTIONS.slice(0, 8), QUESTIONS.slice(8)];
  return markup`${errorSummary(problems)}
    <form method="post" action=${`/statements/${s.id}/answers`} class="stack">
      ${csrfField(csrf)} ${before.map((q) => question(q, values, problems))} ${methodChoice(values.method)}
      ${after.map((q) => question(q, values, problems))}
      <div><button type="submit">Save the answers</button></div>
    </form>`;
}

/** The answers of a version nobody may change here (a final one, or a reader's view). */
export function answersList(s: AccessibilityStatement): Html {
  const shown = (f: AnswerField) => s.answers[f] ?? '—';
  return markup`<dl class="facts">
    ${QUESTIONS.map((q) => markup`<dt>${q.label}</dt><dd>${shown(q.field)}</dd>`)}
    <dt>How it was prepared</dt>
    <dd>${s.answers.method === 'third-party' ? 'An assessment by a third party' : 'A self-assessment'}</dd>
  </dl>`;
}

/** The questions still open, each linked to its field when the form is on the page. */
export function missingList(s: AccessibilityStatement, linked: boolean): Html | null {
  if (s.status === 'final' || s.missing.length === 0) return null;
  return markup`<div class="notice">
    <p>Before it can be published, a person has to answer:</p>
    <ul>
      ${s.missing.map((m) =>
        linked
          ? markup`<li><a href=${`#${idOf(m.field)}`}>${m.question}</a></li>`
          : markup`<li>${m.question}</li>`,
      )}
    </ul>
  </div>`;
}
