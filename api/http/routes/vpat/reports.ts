import { renderVpatDiffHtml } from '../../../domain/vpat/render/diff.js';
import { IdParam } from '../../../schemas/common.js';
import {
  DiffQuery,
  PublishBody,
  ReviewBody,
  VpatDiffSchema,
  VpatFormatQuery,
  VpatList,
  VpatListQuery,
} from '../../../schemas/vpat/review.js';
import { GenerateVpatBody, VpatReportSchema } from '../../../schemas/vpat/reports.js';
import { z } from '../../../schemas/zod.js';
import { exportReport } from '../../../services/vpat/exports.js';
import { VpatReportService, type ReportAuthor } from '../../../services/vpat/reports.js';
import { VpatReviewService } from '../../../services/vpat/review.js';
import type { VpatListRecord } from '../../../store/vpat/reports.js';
import type { ApiContext, Principal } from '../../../context.js';
import { newestFirstPage } from '../../pagination.js';
import { defineRoute, type AnyRoute } from '../../route.js';

const TAG = 'VPAT / ACR';

const actor = (principal: Principal): ReportAuthor =>
  principal.kind === 'key'
    ? { keyId: principal.keyId, name: principal.name }
    : { keyId: null, name: 'admin' };

const listItem = (r: VpatListRecord) => ({
  id: r.id,
  siteId: r.siteId,
  scan_id: r.scanId,
  status: r.status,
  version: r.version,
  previous_id: r.previousId,
  edition: r.edition,
  wcag_version: r.wcagVersion,
  level: r.level,
  product: { name: r.productName, version: r.productVersion },
  undecided: r.undecided,
  created_at: r.createdAt,
});

const created = (report: { id: string }) => ({
  status: 201,
  headers: { Location: `/api/v1/vpat/${report.id}` },
  body: report,
});

export function vpatRoutes(ctx: ApiContext): AnyRoute[] {
  return [listRoute(ctx), ...reportRoutes(ctx), ...reviewRoutes(ctx), refreshRoute(ctx)];
}

/** A site's reports, newest first: how clients and the console find them. */
function listRoute(ctx: ApiContext): AnyRoute {
  const reports = new VpatReportService(ctx);
  return defineRoute({
    method: 'get',
    path: '/api/v1/vpat',
    tag: TAG,
    summary: 'List a site’s reports and their versions, newest first',
    access: 'read',
    query: VpatListQuery,
    responses: { 200: { description: 'Reports, newest first.', schema: VpatList, headers: { Link: '' } } },
    handler: ({ query, req, org }) =>
      newestFirstPage(
        req,
        query,
        (limit, after) => reports.list(org, query.siteId, limit, after),
        (r) => [r.createdAt, r.id],
        listItem,
      ),
  });
}

/** Generating, reading and listing reports. */
function reportRoutes(ctx: ApiContext): AnyRoute[] {
  const reports = new VpatReportService(ctx);
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/vpat/generate',
      tag: TAG,
      summary: 'Generate a draft VPAT® / Accessibility Conformance Report from a scan and overrides',
      description:
        'Derives every criterion of the edition from the scan: violations (waived ones too) on more than half of the ' +
        'pages → does-not-support, on half or fewer → partially-supports; anything else → not-evaluated with its basis ' +
        '(`rules-passed` when the covering rules ran on every page and found nothing), waiting for a person: automated ' +
        'evidence never grants supports. Failures W3C’s ACT rules relate to a criterion flag it for review. Overrides win ' +
        'and are flagged `stale` when the evidence contradicts them. 404 when `scan_id` or `inherit_overrides_from` names ' +
        'nothing in your org, or the site has no scan on its base branch.',
      access: 'manage',
      body: GenerateVpatBody,
      responses: {
        201: {
          description: 'The report (version 1, draft).',
          schema: VpatReportSchema,
          headers: { Location: '' },
        },
      },
      handler: async ({ body, org, principal }) =>
        created(await reports.generate(org, actor(principal), body)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/vpat/:id',
      tag: TAG,
      summary: 'A report version: JSON, or ?format=html | md | openacr | pdf',
      description:
        '`html` is one self-contained, printable page in the ITI VPAT® layout (Criteria | Conformance Level | ' +
        'Remarks and Explanations); `md` is Markdown; `openacr` is OpenACR YAML (GSA schema openacr-0.1.0); `pdf` is ' +
        'a tagged PDF with the same content (headings, tables with header cells, language and title).',
      access: 'read',
      params: IdParam,
      query: VpatFormatQuery,
      responses: {
        200: {
          description: 'The report in the requested format.',
          schema: VpatReportSchema,
          content: {
            'text/html': z.string(),
            'text/markdown': z.string(),
            'application/yaml': z.string(),
            'application/pdf': z.string().openapi({ format: 'binary' }),
          },
        },
      },
      handler: async ({ params, query, org, res }) => {
        const report = await reports.find(org, params.id);
        if (query.format === 'json') return { status: 200, body: await reports.withBehind(org, report) };
        const out = await exportReport(report, query.format);
        if (typeof out.body === 'string')
          return { status: 200, body: out.body, contentType: out.contentType };
        res.status(200).type(out.contentType).send(out.body);
        return 'sent';
      },
    }),
  ];
}

/** A review stores a whole new version: its request is capped well below `body_bytes`. */
const REVIEW_BODY_LIMIT = {
  name: 'review_request_bytes',
  bytes: (l: { reviewRequestBytes: number }) => l.reviewRequestBytes,
};

/** People's part: reviews, publication and comparison. */
function reviewRoutes(ctx: ApiContext): AnyRoute[] {
  const reviews = new VpatReviewService(ctx);
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/vpat/:id/review',
      tag: TAG,
      summary: 'Record reviewers’ decisions: a new draft version carrying every earlier decision forward',
      description:
        'Each decision grants a level with remarks, or `confirm: true` to accept automated evidence, which grants ' +
        'supports only where the row’s basis is `rules-passed` and no related failure is flagged (otherwise 422 with ' +
        'pointers). Reports are immutable: the answer is a new version with `previous_id`. 409 for a final report, and ' +
        'for a version that already has a newer one (versions form one line: review the newest).',
      access: 'manage',
      params: IdParam,
      body: ReviewBody,
      bodyLimit: REVIEW_BODY_LIMIT,
      responses: {
        201: { description: 'The new version.', schema: VpatReportSchema, headers: { Location: '' } },
      },
      handler: async ({ params, body, org, principal }) =>
        created(await reviews.review(org, actor(principal), params.id, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/vpat/:id/publish',
      tag: TAG,
      summary: 'Publish the final version of a report whose every row has a decision',
      description:
        '422 listing the undecided rows (`errors[].pointer` = `#/criteria/<index>`) while any is left; 409 when the ' +
        'version is already final or already has a newer version, and 409 naming each result recorded in its assessment ' +
        'after it was made (`errors[].pointer` = `#/publish_behind`, `behind` with the counts) unless `publish_behind` ' +
        'is true. The final version records the publisher, the date and what it was published without.',
      access: 'manage',
      params: IdParam,
      body: PublishBody,
      bodyLimit: REVIEW_BODY_LIMIT,
      responses: {
        201: { description: 'The final version.', schema: VpatReportSchema, headers: { Location: '' } },
      },
      handler: async ({ params, body, org, principal }) =>
        created(await reviews.publish(org, actor(principal), params.id, body)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/vpat/:id/diff',
      tag: TAG,
      summary:
        'What changed from another report (`against`; default: the previous version) to this one: JSON or ?format=html',
      description:
        'Criteria whose level, basis or remarks changed; violations new, resolved or changed in count; reviewers’ ' +
        'decisions added, dropped, changed or made stale.',
      access: 'read',
      params: IdParam,
      query: DiffQuery,
      responses: {
        200: { description: 'The changes.', schema: VpatDiffSchema, content: { 'text/html': z.string() } },
      },
      handler: async ({ params, query, org }) => {
        const diff = await reviews.diff(org, params.id, query.against);
        if (query.format === 'html') {
          return { status: 200, body: renderVpatDiffHtml(diff), contentType: 'text/html; charset=utf-8' };
        }
        return { status: 200, body: diff };
      },
    }),
  ];
}

/** The next version from the newest evidence: how a report follows results and scans made after it. */
function refreshRoute(ctx: ApiContext): AnyRoute {
  const reviews = new VpatReviewService(ctx);
  return defineRoute({
    method: 'post',
    path: '/api/v1/vpat/:id/refresh',
    tag: TAG,
    summary: 'Make the next draft version from the newest evidence, every decision carried forward',
    description:
      'The latest full scan of the site’s base branch (when newer than the version’s) and the results of its assessment as ' +
      'they are now (the site’s newest assessment when the report had none); every person’s decision is carried ' +
      'forward with its author and time, and a confirmation the new evidence no longer allows becomes a warning. ' +
      '`behind` in `GET /api/v1/vpat/{id}` says when there is something newer. 409 for a final report (generate a ' +
      'new one with `inherit_overrides_from`) and for a version that already has a newer one.',
    access: 'manage',
    params: IdParam,
    responses: {
      201: { description: 'The new version.', schema: VpatReportSchema, headers: { Location: '' } },
    },
    handler: async ({ params, org, principal }) =>
      created(await reviews.refresh(org, actor(principal), params.id)),
  });
}
