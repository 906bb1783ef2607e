import type { Request, Response } from 'express';
import { DomainError } from '../../../domain/errors.js';
import type { ApiContext } from '../../../context.js';
import {
  createAssessment,
  listSiteAssessments,
  pagesToSample,
} from '../../../services/assessments/assessments.js';
import { VpatReportService } from '../../../services/vpat/reports.js';
import { field } from '../../guard.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { redirectAfterPost } from '../../respond.js';
import { hasScope, opensPagesOf, type Visitor } from '../../session.js';
import { csrfField, when } from '../../views/parts.js';

/** A site's reports and assessments, and the form that starts an assessment. */

function startForm(siteId: string, csrf: string, error: string | null): Html {
  return markup`<form method="post" action=${`/sites/${siteId}/assessments`} class="stack">
    ${csrfField(csrf)}
    ${error ? markup`<p class="field-error" role="alert">Error: ${error}</p>` : null}
    <div class="field">
      <label for="assessment-title">Title</label>
      <input type="text" id="assessment-title" name="title" required maxlength="200" value="Assessment" />
    </div>
    <div class="field">
      <label for="assessment-random">Pages drawn at random from the latest scan of the base branch</label>
      <input type="number" id="assessment-random" name="random" min="0" max="500" value="5" />
    </div>
    <div><button type="submit">Start an assessment</button></div>
  </form>`;
}

function generateForm(siteId: string, csrf: string, product: string): Html {
  const field = (id: string, name: string, label: string, value: string) =>
    markup`<div class="field">
      <label for=${id}>${label}</label>
      <input type="text" id=${id} name=${name} required maxlength="200" value=${value} />
    </div>`;
  return markup`<form method="post" action=${`/sites/${siteId}/reports`} class="stack">
    ${csrfField(csrf)} ${field('report-name', 'name', 'Product name', product)}
    ${field('report-version', 'version', 'Product version', '')}
    <div class="field">
      <label for="report-description">Product description</label>
      <textarea id="report-description" name="description" required maxlength="2000"></textarea>
    </div>
    <div><button type="submit">Generate a report</button></div>
  </form>`;
}

export async function reportsAndAssessments(
  ctx: ApiContext,
  v: Visitor,
  siteId: string,
  error: string | null = null,
): Promise<Html> {
  // Reports and assessments are not one site's pages: a session limited to some sites cannot open them,
  // so it is not shown their titles either.
  if (!opensPagesOf(v, undefined)) {
    return markup`<h2 id="reports">Reports and assessments</h2>
      <p>Reports and assessments are shown to sessions signed in with an API key.</p>`;
  }
  const org = v.user.org;
  const [reports, assessments] = await Promise.all([
    new VpatReportService(ctx).list(org, siteId, 20),
    listSiteAssessments(ctx, org, siteId, 20),
  ]);
  return markup`<h2 id="reports">Reports</h2>
    ${
      reports.length === 0
        ? markup`<p>No report of this site yet.</p>`
        : markup`<ul>
            ${reports.map(
              (r) =>
                markup`<li><a href=${`/reports/${r.id}`}>${r.productName ?? 'Report'} ${r.productVersion ?? ''}, version ${r.version} (${r.status})</a>, ${when(r.createdAt)}</li>`,
            )}
          </ul>`
    }
    ${hasScope(v, 'manage') ? generateForm(siteId, v.csrf, siteId) : null}
    <h2 id="assessments">Assessments</h2>
    ${
      assessments.length === 0
        ? markup`<p>No assessment of this site yet.</p>`
        : markup`<ul>
            ${assessments.map((a) => markup`<li><a href=${`/assessments/${a.id}`}>${a.title}</a>, ${a.sample.length} pages, ${when(a.createdAt)}</li>`)}
          </ul>`
    }
    ${hasScope(v, 'manage') ? startForm(siteId, v.csrf, error) : markup`<p>Starting an assessment needs a key with the “manage” scope.</p>`}`;
}

/** Starts an assessment of the site: `random` pages of its latest base-branch scan. */
export function startAssessmentAction(
  ctx: ApiContext,
  showAgain: (v: Visitor, req: Request, res: Response, error: string) => Promise<void>,
) {
  return async (v: Visitor, req: Request, res: Response) => {
    const siteId = String(req.params.siteId);
    const random = Number(field(req, 'random') || '0');
    const title = field(req, 'title').trim() || 'Assessment';
    if (!Number.isInteger(random) || random < 0 || random > 500) {
      return showAgain(v, req, res, 'The number of pages must be a whole number from 0 to 500.');
    }
    try {
      const a = await createAssessment(ctx, v.user.org, v.user.name, {
        siteId,
        title: title.slice(0, 200),
        standard: { wcag: '2.2', level: 'AA' },
        // A site with fewer pages than asked for gets all of them.
        sample: { pages: [], random: Math.min(random, await pagesToSample(ctx, v.user.org, siteId)) },
      });
      redirectAfterPost(res, `/assessments/${a.id}`);
    } catch (err) {
      if (!(err instanceof DomainError) || err.kind === 'forbidden') throw err;
      if (err.kind === 'not_found' && /^No such site/.test(err.message)) throw err;
      return showAgain(v, req, res, err.errors?.map((e) => e.detail).join('; ') ?? err.message);
    }
  };
}

/** Generates a draft report of the site's latest base-branch scan (and its newest assessment). */
export function generateReportAction(
  ctx: ApiContext,
  showAgain: (v: Visitor, req: Request, res: Response, error: string) => Promise<void>,
) {
  return async (v: Visitor, req: Request, res: Response) => {
    const [name, version, description] = ['name', 'version', 'description'].map((f) => field(req, f).trim());
    if (!name || !version || !description) {
      return showAgain(v, req, res, 'A report needs the product’s name, version and description.');
    }
    try {
      const r = await new VpatReportService(ctx).generate(
        v.user.org,
        { keyId: v.user.keyId, name: v.user.name },
        {
          siteId: String(req.params.siteId),
          product: {
            name: name.slice(0, 200),
            version: version.slice(0, 100),
            description: description.slice(0, 2000),
          },
          edition: 'wcag',
          wcag_version: '2.2',
          level: 'AA',
          overrides: [],
        },
      );
      redirectAfterPost(res, `/reports/${r.id}`);
    } catch (err) {
      if (!(err instanceof DomainError) || err.kind === 'forbidden') throw err;
      return showAgain(v, req, res, err.message);
    }
  };
}
