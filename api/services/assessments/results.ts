import type { ApiContext } from '../../context.js';
import type { AssessmentResult, ResultState } from '../../domain/vpat/assessments/assessment.js';
import { procedureFor } from '../../../core/catalog/procedures.js';
import { assessedCriteria } from '../../domain/vpat/assessments/verdict.js';
import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import { touchAssessment } from '../../store/assessments/assessments.js';
import { automatedCounts, reviewItems } from '../../store/assessments/automated-results.js';
import {
  findResult,
  insertChanges,
  listChanges,
  lockResult,
  listResults,
  writeResult,
} from '../../store/assessments/results.js';
import { requireAssessment } from './assessments.js';
import { presentResult } from './present.js';

export interface ResultInput extends ResultState {
  page: string | null;
}

/**
 * The version an `If-Match` header names: `"r3"` → 3, `*` → whatever is current; absent → no condition.
 * Anything else matches no version (so it fails like a stale one).
 */
function expectedVersion(ifMatch: string | undefined): number | '*' | undefined {
  if (ifMatch === undefined) return undefined;
  const v = ifMatch.trim();
  if (v === '*') return '*';
  const m = /^(?:W\/)?"r(\d{1,9})"$/.exec(v);
  return m ? Number(m[1]) : -1;
}

class LostWrite extends Error {}

async function criterionOf(ctx: ApiContext, org: string, id: string, criterion: string) {
  const a = await requireAssessment(ctx, org, id);
  const c = assessedCriteria(a.level).find((x) => x.id === criterion);
  if (!c) throw domainErrors.notFound(`criterion ${criterion} in a WCAG 2.2 Level ${a.level} assessment`);
  return { a, c };
}

/**
 * Records one result. A stale `If-Match` (someone else wrote since the writer read it) is refused with the
 * current result, so concurrent testers never overwrite each other unseen; every write is kept as a change.
 * Without `If-Match` the write has no condition: writers of one result take turns and the last one wins.
 */
export async function putResult(
  ctx: ApiContext,
  org: string,
  ids: { id: string; criterion: string },
  input: ResultInput,
  ifMatch: string | undefined,
  by: string,
) {
  const { a } = await criterionOf(ctx, org, ids.id, ids.criterion);
  if (input.page !== null && !a.sample.some((p) => p.url === input.page)) {
    throw domainErrors.invalid([
      { pointer: '#/page', detail: `"${input.page}" is not a page of the sample` },
    ]);
  }
  const expected = expectedVersion(ifMatch);
  try {
    const written = await ctx.db.transaction(async (trx) => {
      await lockResult(trx, a.id, ids.criterion, input.page);
      const at = nowIso();
      const current = await findResult(trx, a.id, ids.criterion, input.page);
      const version = current?.version ?? 0;
      if (expected !== undefined && (expected === '*' ? version === 0 : expected !== version))
        throw new LostWrite();
      const next: AssessmentResult = {
        criterion: ids.criterion,
        ...input,
        version: version + 1,
        updatedAt: at,
      };
      if (!(await writeResult(trx, a.id, next, version))) throw new LostWrite();
      const before = current
        ? { outcome: current.outcome, notes: current.notes, tester: current.tester }
        : null;
      const after = { outcome: input.outcome, notes: input.notes, tester: input.tester };
      await insertChanges(trx, a.id, [{ criterion: ids.criterion, page: input.page, before, after, by, at }]);
      await touchAssessment(trx, org, a.id, at);
      return next;
    });
    return presentResult(written);
  } catch (err) {
    if (!(err instanceof LostWrite)) throw err;
    const current = await findResult(ctx.db, a.id, ids.criterion, input.page);
    throw domainErrors.preconditionFailed(
      current
        ? `The result was changed since you read it (now version ${current.version}, by ${current.tester}): read it again and decide.`
        : 'The result does not exist yet: send no If-Match (or If-Match only with an ETag you read).',
      { current: current ? presentResult(current) : null },
    );
  }
}

/** One criterion of an assessment as a tester works on it: procedure, evidence, review items, results, history. */
export async function criterionWorkspace(ctx: ApiContext, org: string, id: string, criterion: string) {
  const { a, c } = await criterionOf(ctx, org, id, criterion);
  const pages = a.sample.map((p) => p.url);
  const [automated, review, results, history] = await Promise.all([
    a.scanId ? automatedCounts(ctx.db, a.scanId, pages, c.id) : [],
    a.scanId ? reviewItems(ctx.db, a.scanId, pages, c.id) : [],
    listResults(ctx.db, a.id, c.id),
    listChanges(ctx.db, a.id, c.id),
  ]);
  const procedure = procedureFor(c.id);
  if (!procedure) throw new Error(`no test procedure for ${c.id}`);
  return {
    criterion: c.id,
    title: c.title,
    level: c.level,
    url: c.url,
    procedure,
    automated,
    review_items: review.map((r) => ({
      page: r.page,
      rule: r.rule,
      selector: r.selector,
      message: r.message,
      help_url: r.helpUrl,
    })),
    results: results.map(presentResult),
    history: history.map((h) => ({ page: h.page, before: h.before, after: h.after, by: h.by, at: h.at })),
  };
}
