import type { Request, Response } from 'express';
import { DomainError } from '../../../domain/errors.js';
import { STATUS_WORDS } from '../../../domain/statement/render/words.js';
import { REVIEW_NOTICE_DAYS } from '../../../domain/statement/statement.js';
import type { ApiContext } from '../../../context.js';
import { daysUntil } from '../../../services/statement/review-due.js';
import { StatementService } from '../../../services/statement/statements.js';
import { VpatReportService } from '../../../services/vpat/reports.js';
import { field } from '../../guard.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { redirectAfterPost, sendPage } from '../../respond.js';
import { hasScope, opensPagesOf, type Visitor } from '../../session.js';
import { csrfField } from '../../views/parts.js';

type StatementListRecord = Awaited<ReturnType<StatementService['list']>>[number];

/** A site's accessibility statements on its page, the review notice, and the form that makes the next version. */

/** The site's newest published version, when its yearly review is near or past: the notice people act on. */
export function reviewNotice(newestFinal: StatementListRecord | undefined, now = new Date()): Html | null {
  const on = newestFinal?.nextReviewOn;
  if (!newestFinal || !on) return null;
  const days = daysUntil(on, now);
  if (days > REVIEW_NOTICE_DAYS) return null;
  const when =
    days >= 0 ? `is due by ${on} (in ${days === 1 ? '1 day' : `${days} days`})` : `was due on ${on}`;
  const text =
    `the yearly review of the accessibility statement (version ${newestFinal.version}) ${when}. ` +
    'Make the next version from the newest published report and publish it.';
  return markup`<p class="notice"><strong>Review due:</strong> ${text}</p>`;
}

function versionItem(r: StatementListRecord): Html {
  const state = r.published
    ? `published by ${r.published.by} on ${r.published.at.slice(0, 10)}, next review by ${r.nextReviewOn ?? '—'}`
    : `draft, ${r.missing === 0 ? 'ready to publish' : `${r.missing} ${r.missing === 1 ? 'answer' : 'answers'} missing`}`;
  return markup`<li>
    <a href=${`/statements/${r.id}`}>Version ${r.version}</a>: ${STATUS_WORDS[r.compliance]}, ${state}
  </li>`;
}

async function makeForm(
  ctx: ApiContext,
  v: Visitor,
  siteId: string,
  versions: StatementListRecord[],
): Promise<Html> {
  const draft = versions.find((r) => r.status === 'draft');
  if (draft)
    return markup`<p>Version ${draft.version} is a draft: answer and publish it before making another.</p>`;
  const finals = (await new VpatReportService(ctx).list(v.user.org, siteId, 50)).filter(
    (r) => r.status === 'final',
  );
  if (finals.length === 0) {
    return markup`<p>A statement is made from a published report: publish a report of this site first.</p>`;
  }
  return markup`<form method="post" action=${`/sites/${siteId}/statements`} class="stack">
    ${csrfField(v.csrf)}
    <div class="field">
      <label for="statement-report">Published report</label>
      <span class="hint" id="statement-report-hint">The evidence the statement is made from. Your earlier answers carry over.</span>
      <select id="statement-report" name="report_id" aria-describedby="statement-report-hint">
        ${finals.map(
          (r) =>
            markup`<option value=${r.id}>${r.productName ?? 'Report'} ${r.productVersion ?? ''}, version ${r.version}, ${r.createdAt.slice(0, 10)}</option>`,
        )}
      </select>
    </div>
    <div><button type="submit">Make ${versions.length === 0 ? 'the statement' : 'the next version'}</button></div>
  </form>`;
}

/** The site page's "Accessibility statement" part. */
export async function statementsSection(ctx: ApiContext, v: Visitor, siteId: string): Promise<Html> {
  // Like reports, statements are not one site's pages for a session limited to some sites.
  if (!opensPagesOf(v, undefined)) return markup``;
  const versions = await new StatementService(ctx).list(v.user.org, siteId, 20);
  return markup`<section aria-labelledby="statements">
    <h2 id="statements">Accessibility statement</h2>
    ${reviewNotice(versions.find((r) => r.status === 'final'))}
    ${
      versions.length === 0
        ? markup`<p>No accessibility statement of this site yet.</p>`
        : markup`<ul>
            ${versions.map(versionItem)}
          </ul>`
    }
    ${hasScope(v, 'manage') ? await makeForm(ctx, v, siteId, versions) : null}
  </section>`;
}

/** Makes the site's next statement version from the chosen report; a refusal is a page saying why. */
export function createStatementAction(ctx: ApiContext) {
  const statements = new StatementService(ctx);
  return async (v: Visitor, req: Request, res: Response): Promise<void> => {
    const siteId = String(req.params.siteId);
    try {
      const s = await statements.create(
        v.user.org,
        { keyId: v.user.keyId, name: v.user.name },
        { siteId, report_id: field(req, 'report_id') || undefined, answers: {} },
      );
      redirectAfterPost(res, `/statements/${s.id}`);
    } catch (err) {
      if (!(err instanceof DomainError) || (err.kind !== 'conflict' && err.kind !== 'invalid')) throw err;
      sendPage(
        res,
        err.kind === 'conflict' ? 409 : 422,
        layout({
          title: 'The statement was not made',
          visitor: v,
          breadcrumbs: [['Sites', '/'], [siteId, `/sites/${siteId}`], ['Statement']],
          main: markup`<p>${err.errors?.map((e) => e.detail).join('; ') ?? err.message}</p>
            <p><a href=${`/sites/${siteId}#statements`}>Back to the site</a></p>`,
        }),
      );
    }
  };
}
