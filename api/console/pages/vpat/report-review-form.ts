import type { Request, Response } from 'express';
import { DomainError } from '../../../domain/errors.js';
import { EDITIONS, editionCatalog, catalogRowIds } from '../../../domain/vpat/editions.js';
import { PublishBody, ReviewBody } from '../../../schemas/vpat/review.js';
import type { ApiContext } from '../../../context.js';
import { VpatReviewService } from '../../../services/vpat/review.js';
import { field } from '../../guard.js';
import { redirectAfterPost } from '../../respond.js';
import { signerOf, type Visitor } from '../../session.js';
import type { FieldProblem } from '../../views/parts.js';
import type { ReviewState, RowValues } from './report-review.js';

/** The most rows any report can have: every criterion of the largest edition at the highest level. */
const MAX_ROWS = Math.max(...EDITIONS.map((e) => catalogRowIds(editionCatalog(e, '2.2', 'AAA')).size));

/**
 * The batch review form's field bound: three fields a row (criterion, decision, remarks) for every row a
 * report can have, the reviewer and the CSRF token. Every other console form keeps the small default.
 */
export const REVIEW_FORM_FIELDS = 3 * MAX_ROWS + 2;

type ShowAgain = (state: ReviewState, status: number) => Promise<void>;

/** A row of the form: its number (the row's index in the report), its criterion and what was chosen. */
interface SentRow extends RowValues {
  n: number;
  criterion: string;
}

/** The rows the form carried, in the report's order; only a `criterion-N` field makes a row. */
function sentRows(req: Request): SentRow[] {
  const body = (req.body ?? {}) as Record<string, unknown>;
  return Object.keys(body)
    .flatMap((k) => {
      const m = /^criterion-(\d{1,4})$/.exec(k);
      if (!m) return [];
      const n = Number(m[1]);
      return [
        {
          n,
          criterion: field(req, k),
          decision: field(req, `decision-${n}`),
          remarks: field(req, `remarks-${n}`),
        },
      ];
    })
    .sort((a, b) => a.n - b.n);
}

/** Problems of the rows themselves: remarks without a decision, or nothing decided at all. */
function rowProblems(rows: SentRow[], decided: SentRow[]): FieldProblem[] {
  const problems = rows
    .filter((r) => r.decision === '' && r.remarks.trim() !== '')
    .map((r) => ({
      field: `decision-${r.n}`,
      message: `${r.criterion}: choose a decision for these remarks, or clear them.`,
    }));
  if (decided.length === 0 && problems.length === 0) {
    problems.push({
      field: `decision-${rows[0]?.n ?? 0}`,
      message: 'Choose a decision on at least one row.',
    });
  }
  return problems;
}

/** A zod issue of the review body as the problem of the row field it is about. */
function schemaProblem(path: readonly PropertyKey[], decided: SentRow[]): FieldProblem {
  if (path[0] === 'author') return { field: 'author', message: 'Give the reviewer’s name.' };
  const row = typeof path[1] === 'number' ? decided[path[1]] : undefined;
  const n = row?.n ?? decided[0]?.n ?? 0;
  const label = row ? `${row.criterion}: ` : '';
  if (path.at(-1) === 'remarks')
    return { field: `remarks-${n}`, message: `${label}write the remarks shown in the report.` };
  return { field: `decision-${n}`, message: `${label}choose a decision.` };
}

/** Problems the service found (422 pointers `#/decisions/i/…`, 409) as the rows' own problems. */
function serviceProblems(err: unknown, decided: SentRow[], fallback: string): FieldProblem[] | undefined {
  if (!(err instanceof DomainError) || (err.kind !== 'invalid' && err.kind !== 'conflict')) return undefined;
  if (!err.errors?.length) return [{ field: fallback, message: err.message }];
  // A refusal to publish names what stands in the way (results recorded since) under its reason, in the
  // page's words, each linked to the choice that would publish anyway.
  const behind = (err.extra?.behind as { summary?: string } | undefined)?.summary;
  if (err.kind === 'conflict' && behind) {
    return [
      {
        field: 'publish-behind',
        message: `This version is behind its assessment (${behind}): make the next version from the newest evidence, or choose “Publish as it is”.`,
      },
      ...err.errors.map((e) => ({ field: 'publish-behind', message: e.detail })),
    ];
  }
  return err.errors.map((e) => {
    const i = /^#\/decisions\/(\d+)\//.exec(e.pointer ?? '')?.[1];
    const row = i === undefined ? undefined : decided[Number(i)];
    return { field: row ? `decision-${row.n}` : fallback, message: e.detail };
  });
}

/**
 * `POST /reports/:id/review`: every decided row of the form in one review, as one
 * `POST /api/v1/vpat/:id/review`, so one submission is one new version (or, refused, none).
 */
export function reviewAction(
  ctx: ApiContext,
  showAgain: (req: Request, res: Response, v: Visitor) => ShowAgain,
) {
  const reviews = new VpatReviewService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const rows = sentRows(req);
    const author = signerOf(v) ?? field(req, 'author');
    const decided = rows.filter((r) => r.decision !== '');
    const again = (problems: FieldProblem[]) =>
      showAgain(
        req,
        res,
        v,
      )({ target: 'review', rows: new Map(rows.map((r) => [r.n, r])), author, problems }, 422);
    const own = rowProblems(rows, decided);
    if (own.length > 0) return again(own);
    const parsed = ReviewBody.safeParse({
      author,
      decisions: decided.map((r) =>
        r.decision === 'confirm'
          ? { criterion: r.criterion, confirm: true as const, remarks: r.remarks }
          : { criterion: r.criterion, conformance: r.decision, remarks: r.remarks },
      ),
    });
    if (!parsed.success) return again(parsed.error.issues.map((i) => schemaProblem(i.path, decided)));
    try {
      const next = await reviews.review(v.user.org, actorOf(v), String(req.params.id), parsed.data);
      redirectAfterPost(res, `/reports/${encodeURIComponent(next.id)}?decided=${decided.length}#queue`);
    } catch (err) {
      const problems = serviceProblems(err, decided, `decision-${decided[0].n}`);
      if (!problems) throw err;
      return again(problems);
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
    const author = signerOf(v) ?? field(req, 'publisher');
    const again = (problems: FieldProblem[]) =>
      showAgain(req, res, v)({ target: 'publish', rows: new Map(), author, problems }, 422);
    const parsed = PublishBody.safeParse({
      publisher: author,
      publish_behind: field(req, 'publish_behind') === 'yes',
    });
    if (!parsed.success) {
      return again([{ field: 'publisher', message: 'Give the name of the person who signs the report.' }]);
    }
    try {
      const final = await reviews.publish(v.user.org, actorOf(v), String(req.params.id), parsed.data);
      redirectAfterPost(res, `/reports/${encodeURIComponent(final.id)}?published=1`);
    } catch (err) {
      const problems = serviceProblems(err, [], 'publish');
      if (!problems) throw err;
      return again(problems);
    }
  };
}

const actorOf = (v: Visitor) => ({ keyId: v.user.keyId, name: v.user.name });
