import type { Request, Response } from 'express';
import { DomainError } from '../../../domain/errors.js';
import type { ApiContext } from '../../../context.js';
import {
  createAssessment,
  listSiteAssessments,
  pagesToSample,
} from '../../../services/assessments/assessments.js';
import { VpatReportService } from '../../../services/vpat/reports.js';
import { GenerateVpatBody } from '../../../schemas/vpat/reports.js';
import { field } from '../../guard.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { redirectAfterPost } from '../../respond.js';
import { hasScope, opensPagesOf, type Visitor } from '../../session.js';
import { csrfField, when } from '../../views/parts.js';

/** A site's reports and assessments, and the form that starts an assessment. */

/** A refused form of the section, shown again beside that form. */
export interface SectionError {
  form: 'report' | 'assessment';
  message: string;
}

function formError(error: SectionError | null, form: SectionError['form']): Html | null {
  return error?.form === form
    ? markup`<p class="field-error" role="alert">Error: ${error.message}</p>`
    : null;
}

function startForm(siteId: string, csrf: string, error: SectionError | null): Html {
  return markup`<form method="post" action=${`/sites/${siteId}/assessments`} class="stack">
    ${csrfField(csrf)} ${formError(error, 'assessment')}
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

/** The fields of the product a report is about, as the Generate form asks for them. */
const PRODUCT_FIELDS = [
  ['name', 'Product name', 'As customers know it.', 200, true],
  ['version', 'Product version', 'The version the report is about.', 100, true],
  ['vendor', 'Vendor', 'The company that makes the product (optional).', 200, false],
  ['contact', 'Contact', 'An e-mail address or a name to write to about the report (optional).', 320, false],
  [
    'url',
    'Public address',
    'The product’s address for customers, https://… (optional; default: the site’s).',
    2048,
    false,
  ],
] as const;

function generateForm(siteId: string, csrf: string, error: SectionError | null): Html {
  return markup`<form method="post" action=${`/sites/${siteId}/reports`} class="stack">
    ${csrfField(csrf)} ${formError(error, 'report')}
    ${PRODUCT_FIELDS.map(
      ([name, label, hint, max, required]) =>
        markup`<div class="field">
          <label for=${`report-${name}`}>${label}</label>
          <span class="hint" id=${`report-${name}-hint`}>${hint}</span>
          <input type=${name === 'url' ? 'url' : 'text'} id=${`report-${name}`} name=${name} required=${required} maxlength=${max} value=${name === 'name' ? siteId : ''} aria-describedby=${`report-${name}-hint`} />
        </div>`,
    )}
    <div class="field">
      <label for="report-description">Product description</label>
      <span class="hint" id="report-description-hint">What was evaluated: a report is not published without it.</span>
      <textarea id="report-description" name="description" required maxlength="2000" aria-describedby="report-description-hint"></textarea>
    </div>
    <p class="hint">
      The report starts from the latest full scan of the base branch. Nothing here grants a level: people decide the rows on the report’s page, each under their own name.
    </p>
    <div><button type="submit">Generate a report</button></div>
  </form>`;
}

/** A site's report as its list holds it. */
type ListedReport = Awaited<ReturnType<VpatReportService['list']>>[number];

/** A report as a site's list names it: product, version, status and date. */
export function reportLabel(r: ListedReport): string {
  const product = [r.productName ?? 'Report', r.productVersion ?? ''].join(' ').trim();
  return `${product}, version ${r.version} (${r.status}), ${r.createdAt.slice(0, 16).replace('T', ' ')} UTC`;
}

export async function reportsAndAssessments(
  ctx: ApiContext,
  v: Visitor,
  siteId: string,
  error: SectionError | null = null,
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
            ${reports.map((r) => markup`<li><a href=${`/reports/${r.id}`}>${reportLabel(r)}</a></li>`)}
          </ul>`
    }
    ${hasScope(v, 'manage') ? generateForm(siteId, v.csrf, error) : null}
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
  showAgain: (v: Visitor, req: Request, res: Response, error: SectionError) => Promise<void>,
) {
  return async (v: Visitor, req: Request, res: Response) => {
    const again = (message: string) => showAgain(v, req, res, { form: 'assessment', message });
    const siteId = String(req.params.siteId);
    const random = Number(field(req, 'random') || '0');
    const title = field(req, 'title').trim() || 'Assessment';
    if (!Number.isInteger(random) || random < 0 || random > 500) {
      return again('The number of pages must be a whole number from 0 to 500.');
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
      return again(err.errors?.map((e) => e.detail).join('; ') ?? err.message);
    }
  };
}

/** A refused product field in words: which field, and why. */
function productProblem(issue: { path: readonly PropertyKey[]; message: string; code: string }): string {
  const name = String(issue.path.at(-1) === 'product' ? 'product' : (issue.path[1] ?? 'product'));
  const label = PRODUCT_FIELDS.find(([n]) => n === name)?.[1] ?? 'Product description';
  const why =
    name === 'url'
      ? 'give an absolute http(s) address'
      : issue.code === 'invalid_type'
        ? 'this is needed'
        : issue.message;
  return `${label}: ${why}.`;
}

/** Generates a draft report of the site's latest base-branch scan (and its newest assessment). */
export function generateReportAction(
  ctx: ApiContext,
  showAgain: (v: Visitor, req: Request, res: Response, error: SectionError) => Promise<void>,
) {
  return async (v: Visitor, req: Request, res: Response) => {
    const again = (message: string) => showAgain(v, req, res, { form: 'report', message });
    const given = (name: string) => field(req, name).trim() || undefined;
    // The same schema as `POST /api/v1/vpat/generate` judges the product: nothing unchecked is stored.
    const parsed = GenerateVpatBody.safeParse({
      siteId: String(req.params.siteId),
      product: {
        name: given('name'),
        version: given('version'),
        description: given('description'),
        vendor: given('vendor'),
        contact: given('contact'),
        url: given('url'),
      },
    });
    if (!parsed.success) return again(parsed.error.issues.map(productProblem).join(' '));
    if (!parsed.data.product.description) {
      return again('A report needs the product’s name, version and description.');
    }
    try {
      const r = await new VpatReportService(ctx).generate(
        v.user.org,
        { keyId: v.user.keyId, name: v.user.name },
        parsed.data,
      );
      redirectAfterPost(res, `/reports/${r.id}`);
    } catch (err) {
      if (!(err instanceof DomainError) || err.kind === 'forbidden') throw err;
      return again(err.message);
    }
  };
}
