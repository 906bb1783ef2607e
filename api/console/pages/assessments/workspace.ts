import type { Request, Response } from 'express';
import { OUTCOMES, type Outcome } from '../../../domain/vpat/assessments/assessment.js';
import { assessedCriteria } from '../../../domain/vpat/assessments/verdict.js';
import { DomainError } from '../../../domain/errors.js';
import type { ApiContext } from '../../../context.js';
import { assessmentDetail } from '../../../services/assessments/assessments.js';
import { criterionWorkspace, putResult } from '../../../services/assessments/results.js';
import { field } from '../../guard.js';
import { markup } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { redirectAfterPost, sendPage } from '../../respond.js';
import { signerOf, type Visitor } from '../../session.js';
import type { FieldProblem } from '../../views/parts.js';
import {
  criteriaNav,
  evidenceView,
  historyView,
  procedureView,
  progressView,
  resultForm,
  sampleView,
} from './workspace-view.js';

/**
 * The assessment workspace: the sample, one criterion at a time with its procedure, evidence and review
 * items, a result per sampled page (several saved in one submission), progress and history.
 */

function notice(req: Request) {
  const saved = typeof req.query.saved === 'string' ? Number(req.query.saved) : undefined;
  const stale = typeof req.query.stale === 'string' ? req.query.stale : '';
  if (saved === undefined) return null;
  return markup`<p class="notice" role="status">
    ${saved} result${saved === 1 ? '' : 's'} saved.
    ${stale ? ` Not saved, because someone changed them since you opened the page: ${stale}. Their current results are shown below.` : ''}
  </p>`;
}

async function render(
  ctx: ApiContext,
  v: Visitor,
  req: Request,
  res: Response,
  status = 200,
  problems: FieldProblem[] = [],
) {
  const org = v.user.org;
  const d = await assessmentDetail(ctx, org, String(req.params.id));
  const criteria = assessedCriteria(d.standard.level);
  const asked =
    typeof req.query.criterion === 'string'
      ? req.query.criterion
      : String((req.body as { criterion?: string } | undefined)?.criterion ?? '');
  const current = criteria.find((c) => c.id === asked) ?? criteria[0];
  const w = await criterionWorkspace(ctx, org, d.id, current.id);
  const main = markup`${notice(req)} ${progressView(d)}
    <p><a href=${`/assessments/${d.id}/download/earl`}>Download as EARL (WCAG-EM Report Tool)</a></p>
    <h2>Sample</h2>
    ${sampleView(d)}
    <div class="workspace">
      <section aria-labelledby="criterion">
        <h2 id="criterion">${w.criterion} ${w.title} (Level ${w.level})</h2>
        ${procedureView(w)} ${evidenceView(w)}
        <h3>Results</h3>
        ${resultForm(d, w, v.csrf, field(req, 'tester') || (signerOf(v) ?? ''), problems)}
        <h3>History</h3>
        ${historyView(w)}
      </section>
      <h2>All criteria</h2>
      ${criteriaNav(d, current.id, criteria)}
    </div>`;
  sendPage(
    res,
    status,
    layout({
      title: problems.length ? `Error: ${d.title}` : d.title,
      visitor: v,
      breadcrumbs: [['Sites', '/'], [d.siteId, `/sites/${d.siteId}`], ['Assessment']],
      main,
    }),
  );
}

export function assessmentPage(ctx: ApiContext) {
  return (v: Visitor, req: Request, res: Response) => render(ctx, v, req, res);
}

/** Saves every row whose outcome or notes changed, each against the ETag it was shown with. */
export function assessmentResultsAction(ctx: ApiContext) {
  return async (v: Visitor, req: Request, res: Response) => {
    const org = v.user.org;
    const d = await assessmentDetail(ctx, org, String(req.params.id));
    const criterion = field(req, 'criterion');
    const tester = signerOf(v) ?? field(req, 'tester').trim();
    if (!tester) return render(ctx, v, req, res, 400, [{ field: 'tester', message: 'Name the tester.' }]);
    const pages = [null, ...d.sample.pages.map((p) => p.url)];
    const current = new Map(d.results.filter((r) => r.criterion === criterion).map((r) => [r.page, r]));
    let saved = 0;
    const stale: string[] = [];
    for (const [n, page] of pages.entries()) {
      const outcome = field(req, `outcome-${n}`);
      const notes = field(req, `notes-${n}`);
      if (!(OUTCOMES as readonly string[]).includes(outcome)) continue;
      const was = current.get(page);
      if (was && was.outcome === outcome && was.notes === notes && was.tester === tester) continue;
      try {
        const etag = field(req, `etag-${n}`);
        await putResult(
          ctx,
          org,
          { id: d.id, criterion },
          { page, outcome: outcome as Outcome, notes, tester },
          etag || (was ? '"r0"' : undefined),
          v.user.name,
        );
        saved++;
      } catch (err) {
        if (!(err instanceof DomainError) || err.kind !== 'precondition_failed') throw err;
        stale.push(page ?? 'the whole sample');
      }
    }
    const criteria = assessedCriteria(d.standard.level).map((c) => c.id);
    const i = Math.max(0, criteria.indexOf(criterion));
    const go =
      field(req, 'next') === '1' && stale.length === 0
        ? criteria[Math.min(i + 1, criteria.length - 1)]
        : criteria[i];
    const q = new URLSearchParams({
      criterion: go,
      saved: String(saved),
      ...(stale.length ? { stale: stale.join(', ') } : {}),
    });
    redirectAfterPost(res, `/assessments/${d.id}?${q.toString()}#criterion`);
  };
}
