import type { Request, Response } from 'express';
import type { VpatReport } from '../../../domain/vpat/report.js';
import type { ApiContext } from '../../../context.js';
import { VpatReportService } from '../../../services/vpat/reports.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { redirectAfterPost } from '../../respond.js';
import { hasScope, type Visitor } from '../../session.js';
import { csrfField } from '../../views/parts.js';

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
