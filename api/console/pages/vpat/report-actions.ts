import type { Request, Response } from 'express';
import { DomainError } from '../../../domain/errors.js';
import type { VpatReport } from '../../../domain/vpat/report.js';
import type { ApiContext } from '../../../context.js';
import { VpatReportService } from '../../../services/vpat/reports.js';
import { VpatReviewService } from '../../../services/vpat/review.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { redirectAfterPost } from '../../respond.js';
import { hasScope, type Visitor } from '../../session.js';
import { csrfField } from '../../views/parts.js';

/**
 * What is newer than this version (results of its assessment, scans of the base branch) and, for a
 * manager of a draft, the one button that makes the next version from it.
 */
export function behindSection(r: VpatReport, v: Visitor): Html | null {
  const b = r.behind;
  if (!b || (b.results === 0 && b.scans === 0)) return null;
  const what = [
    b.results > 0
      ? markup`<li>${b.results === 1 ? '1 result' : `${b.results} results`} recorded in <a href=${`/assessments/${b.assessment_id ?? ''}`}>its assessment</a> since this version was made</li>`
      : null,
    b.scans > 0
      ? markup`<li>${b.scans === 1 ? '1 newer scan' : `${b.scans} newer scans`} of the base branch (<a href=${`/scans/${b.latest_scan_id ?? ''}`}>the latest</a>)</li>`
      : null,
  ];
  return markup`<section class="notice" aria-labelledby="behind">
    <h2 id="behind">Behind the evidence: ${b.summary}</h2>
    <ul>
      ${what}
    </ul>
    ${
      r.status === 'draft' && hasScope(v, 'manage')
        ? markup`<form method="post" action=${`/reports/${r.id}/refresh`}>
            ${csrfField(v.csrf)}
            <button type="submit">Make the next version from the newest evidence</button>
          </form>
          <p>Every decision made on this report is carried forward.</p>`
        : r.status === 'final'
          ? markup`<p>This version is final: start the next report from it to follow the newer evidence.</p>`
          : null
    }
  </section>`;
}

/** The report page's buttons: the next report from this one, and an assessment of its site. */

export function reportButtons(r: VpatReport, v: Visitor): Html | null {
  if (!hasScope(v, 'manage')) return null;
  return markup`<h2>Next steps</h2>
    <div class="actions">
      <form method="post" action=${`/reports/${r.id}/next`}>
        ${csrfField(v.csrf)}
        <button type="submit">Start the next report from this one</button>
      </form>
      <form method="post" action=${`/sites/${r.siteId}/assessments`}>
        ${csrfField(v.csrf)} <input type="hidden" name="title" value=${`Assessment for ${r.product.name} ${r.product.version}`} />
        <input type="hidden" name="random" value="5" />
        <button type="submit">Start an assessment of this site</button>
      </form>
    </div>`;
}

/**
 * A new draft of the same product from the site's latest base-branch scan (and its newest assessment),
 * carrying this report's decisions forward.
 */
export function nextReportAction(ctx: ApiContext) {
  const reports = new VpatReportService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const r = await reports.find(v.user.org, String(req.params.id));
    const next = await reports.generate(
      v.user.org,
      { keyId: v.user.keyId, name: v.user.name },
      {
        siteId: r.siteId,
        product: { ...r.product, contact: r.product.contact },
        edition: r.edition,
        wcag_version: r.wcag_version,
        level: r.level,
        overrides: [],
        inherit_overrides_from: r.id,
      },
    );
    redirectAfterPost(res, `/reports/${next.id}`);
  };
}

/** `POST /reports/:id/refresh`: the next version from the newest evidence, as `POST /api/v1/vpat/:id/refresh`. */
export function refreshReportAction(ctx: ApiContext) {
  const reviews = new VpatReviewService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const id = String(req.params.id);
    try {
      const next = await reviews.refresh(v.user.org, { keyId: v.user.keyId, name: v.user.name }, id);
      redirectAfterPost(res, `/reports/${next.id}?refreshed=1`);
    } catch (err) {
      // Sent twice, or after someone else made the next version: nothing was made, and the page says so.
      if (!(err instanceof DomainError) || err.kind !== 'conflict') throw err;
      redirectAfterPost(res, `/reports/${encodeURIComponent(id)}?not_refreshed=1`);
    }
  };
}
