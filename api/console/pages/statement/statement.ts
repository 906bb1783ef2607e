import type { Request, Response } from 'express';
import { DomainError, domainErrors } from '../../../domain/errors.js';
import type { AccessibilityStatement } from '../../../domain/statement/statement.js';
import { statusLine } from '../../../domain/statement/render/words.js';
import type { ApiContext } from '../../../context.js';
import { exportStatement, type StatementFormat } from '../../../services/statement/exports.js';
import { StatementService } from '../../../services/statement/statements.js';
import { field } from '../../guard.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { redirectAfterPost, sendPage } from '../../respond.js';
import { hasScope, type Visitor } from '../../session.js';
import { csrfField, errorSummary, textField, type FieldProblem } from '../../views/parts.js';
import { reviewNotice } from './site-section.js';
import { evidenceSection } from './statement-evidence.js';
import {
  answerProblems,
  answersForm,
  answersList,
  missingList,
  readAnswers,
  storedValues,
  type AnswerValues,
} from './statement-form.js';

/** `/statements/:id`: what the evidence says, what a person answers, publication and the downloads. */

const DOWNLOADS: Record<StatementFormat, { label: string; ext: string }> = {
  html: { label: 'The statement (HTML, printable)', ext: 'html' },
  md: { label: 'The statement (Markdown)', ext: 'md' },
  json: { label: 'The statement (JSON)', ext: 'json' },
  eaa: { label: 'Service information for the European Accessibility Act (HTML)', ext: 'eaa.html' },
};

/** A refused form shown again: what was typed and what to correct. */
interface FormState {
  answers?: { values: AnswerValues; problems: FieldProblem[] };
  publish?: { publisher: string; problems: FieldProblem[] };
  /** Why a form changed nothing when no field is to blame (the version is final). */
  conflict?: string;
}

function notice(req: Request): Html | null {
  if (req.query.saved === '1') return markup`<p class="notice" role="status">The answers are saved.</p>`;
  if (req.query.published === '1')
    return markup`<p class="notice" role="status">Published: this version is final.</p>`;
  return null;
}

function publishSection(s: AccessibilityStatement, v: Visitor, state?: FormState['publish']): Html {
  if (s.status === 'final') {
    return markup`<p>
      Published by ${s.published?.by} on ${s.published?.at.slice(0, 10)}. A published statement never changes: to
      change it, make the next version from the site’s page.
    </p>`;
  }
  if (!hasScope(v, 'manage')) return markup`<p>Publishing needs a key with the “manage” scope.</p>`;
  if (s.missing.length > 0) return markup`<p>Publishing needs every answer above.</p>`;
  return markup`${errorSummary(state?.problems ?? [])}
    <form method="post" action=${`/statements/${s.id}/publish`} class="stack">
      ${csrfField(v.csrf)}
      ${textField({
        id: 'publisher',
        name: 'publisher',
        label: 'Your name',
        hint: 'Recorded as the person who published the statement, with today’s date.',
        value: state?.publisher ?? '',
        problem: state?.problems[0],
        maxLength: 200,
      })}
      <div><button type="submit">Publish this statement</button></div>
    </form>`;
}

function answersSection(s: AccessibilityStatement, v: Visitor, state?: FormState['answers']): Html {
  const editable = s.status === 'draft' && hasScope(v, 'manage');
  return markup`<h2 id="answers">What a person answers</h2>
    ${missingList(s, editable)}
    ${
      editable
        ? answersForm(s, v.csrf, state?.values ?? storedValues(s), state?.problems ?? [])
        : answersList(s)
    }`;
}

async function render(
  ctx: ApiContext,
  v: Visitor,
  req: Request,
  res: Response,
  status = 200,
  state: FormState = {},
) {
  const statements = new StatementService(ctx);
  const s = await statements.find(v.user.org, String(req.params.id));
  const newestFinal = (await statements.list(v.user.org, s.siteId, 2)).find((r) => r.status === 'final');
  const refused = state.conflict
    ? markup`<div class="error-summary" role="alert">
        <h2>Nothing was changed</h2>
        <p>${state.conflict}</p>
      </div>`
    : null;
  const main = markup`${refused} ${notice(req)} ${newestFinal?.id === s.id ? reviewNotice(newestFinal) : null}
    <p><strong>${statusLine(s)}</strong></p>
    ${evidenceSection(s)} ${answersSection(s, v, state.answers)}
    <h2 id="publish">Publish</h2>
    ${publishSection(s, v, state.publish)}
    <h2 id="downloads">Downloads</h2>
    <ul>
      ${Object.entries(DOWNLOADS).map(
        ([f, d]) => markup`<li><a href=${`/statements/${s.id}/download/${f}`}>${d.label}</a></li>`,
      )}
    </ul>`;
  sendPage(
    res,
    status,
    layout({
      title: `${status >= 400 ? 'Error: ' : ''}Accessibility statement for ${s.scope.service}, version ${s.version}`,
      visitor: v,
      breadcrumbs: [['Sites', '/'], [s.siteId, `/sites/${s.siteId}`], ['Statement']],
      main,
    }),
  );
}

export function statementPage(ctx: ApiContext) {
  return (v: Visitor, req: Request, res: Response) => render(ctx, v, req, res);
}

/**
 * A refusal shown on the page: an answer the service refused (a pointer into the answers) beside its field,
 * a final version's refusal at the top; anything else is not the form's to explain.
 */
function refusal(err: unknown, values: AnswerValues): FormState | undefined {
  if (!(err instanceof DomainError)) return undefined;
  if (err.kind === 'conflict') return { conflict: err.message };
  if (err.kind !== 'invalid' || !err.errors) return undefined;
  const fields = err.errors.map((e) => ({ field: e.pointer.replace(/^#\/answers\//, ''), detail: e.detail }));
  return { answers: { values, problems: answerProblems(fields) } };
}

const statusOf = (state: FormState) => (state.conflict ? 409 : 422);

export function statementAnswersAction(ctx: ApiContext) {
  const statements = new StatementService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const id = String(req.params.id);
    const read = readAnswers(req);
    if (!read.answers) return render(ctx, v, req, res, 422, { answers: read });
    try {
      await statements.update(v.user.org, id, { answers: read.answers });
    } catch (err) {
      const state = refusal(err, read.values);
      if (!state) throw err;
      return render(ctx, v, req, res, statusOf(state), state);
    }
    redirectAfterPost(res, `/statements/${encodeURIComponent(id)}?saved=1#answers`);
  };
}

export function statementPublishAction(ctx: ApiContext) {
  const statements = new StatementService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const id = String(req.params.id);
    const publisher = field(req, 'publisher').trim();
    if (!publisher || publisher.length > 200) {
      const problems = [{ field: 'publisher', message: 'Type your name: it is recorded as the publisher.' }];
      return render(ctx, v, req, res, 422, { publish: { publisher, problems } });
    }
    try {
      await statements.publish(v.user.org, id, publisher);
    } catch (err) {
      // An answer found missing or out of date when published (the evidence was read again): shown by its field.
      const state = refusal(err, storedValues(await statements.find(v.user.org, id)));
      if (!state) throw err;
      return render(ctx, v, req, res, statusOf(state), state);
    }
    redirectAfterPost(res, `/statements/${encodeURIComponent(id)}?published=1`);
  };
}

/** The statement as a download, rendered by the same service as `GET /api/v1/statements/:id?format=`. */
export function statementDownload(ctx: ApiContext) {
  const statements = new StatementService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const format = String(req.params.format) as StatementFormat;
    if (!Object.hasOwn(DOWNLOADS, format)) throw domainErrors.notFound('format');
    const s = await statements.find(v.user.org, String(req.params.id));
    const out = exportStatement(s, format);
    res
      .status(200)
      .set('Content-Disposition', `attachment; filename="${s.id}.${DOWNLOADS[format].ext}"`)
      .set('Cache-Control', 'no-store')
      .type(out.contentType)
      .send(out.body);
  };
}
