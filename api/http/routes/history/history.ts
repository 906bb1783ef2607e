import { historyCsv } from '../../../domain/history/csv.js';
import {
  DeadlineDaysSchema,
  DeadlineOverridesSchema,
  OrgDeadlines,
  SiteDeadlines,
} from '../../../schemas/history/deadlines.js';
import {
  HistoryIssueList,
  HistoryIssuesQuery,
  HistoryQuery,
  SiteHistory,
} from '../../../schemas/history/history.js';
import { SiteParam } from '../../../schemas/sites/sites.js';
import { z } from '../../../schemas/zod.js';
import {
  orgDeadlines,
  setOrgDeadlines,
  setSiteDeadlines,
  siteDeadlines,
} from '../../../services/history/deadlines.js';
import { siteHistory, siteIssueHistory } from '../../../services/history/read.js';
import type { ApiContext } from '../../../context.js';
import { csvAnswer, wantsCsv } from '../../csv.js';
import { defineRoute, type AnyRoute } from '../../route.js';

const TAG = 'History';

export function historyRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/sites/:siteId/history',
      tag: TAG,
      summary:
        "A site's history by day, week or month: open issues by impact, new, fixed, regressions, overdue",
      description:
        "The site's base branch as its full scans left it, per interval, oldest first; `?format=csv` (or " +
        '`Accept: text/csv`) gives the same as CSV. `404` when the site does not exist.',
      access: 'read',
      params: SiteParam,
      query: HistoryQuery,
      responses: {
        200: { description: 'The series.', schema: SiteHistory, content: { 'text/csv': z.string() } },
      },
      handler: async ({ params, query, org, req }) => {
        const { body, points } = await siteHistory(ctx, org, params.siteId, query);
        if (!wantsCsv(query.format, req.headers.accept)) return { status: 200, body };
        return csvAnswer(
          historyCsv(params.siteId, points),
          `history-${params.siteId}-${body.from}-${body.to}.csv`,
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/sites/:siteId/history/issues',
      tag: TAG,
      summary: "A site's issues by identity: first seen, fixed, regressions, age, due date, overdue",
      description: 'In fingerprint order, paged with `cursor`. `404` when the site does not exist.',
      access: 'read',
      params: SiteParam,
      query: HistoryIssuesQuery,
      responses: { 200: { description: 'A page of issues.', schema: HistoryIssueList } },
      handler: async ({ params, query, org }) => ({
        status: 200,
        body: await siteIssueHistory(ctx, org, params.siteId, query),
      }),
    }),
    ...deadlineRoutes(ctx),
  ];
}

/** The org's and each site's deadlines per impact. */
function deadlineRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/deadlines',
      tag: TAG,
      summary: "The org's deadlines: days to fix an open issue, per impact",
      description: 'Default: 30 days critical, 60 serious, 90 moderate, none for minor.',
      access: 'read',
      responses: { 200: { description: "The org's deadlines.", schema: OrgDeadlines } },
      handler: async ({ org }) => ({ status: 200, body: await orgDeadlines(ctx, org) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/deadlines',
      tag: TAG,
      summary: "Set the org's deadlines per impact",
      description: 'Every impact is named; null: no deadline. Sites without their own days follow these.',
      access: ['admin'],
      body: DeadlineDaysSchema,
      responses: { 200: { description: "The org's deadlines.", schema: OrgDeadlines } },
      handler: async ({ body, org }) => ({ status: 200, body: await setOrgDeadlines(ctx, org, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/sites/:siteId/deadlines',
      tag: TAG,
      summary: "A site's deadlines: its own days over the org's",
      description: '`404` when the site does not exist.',
      access: 'read',
      params: SiteParam,
      responses: { 200: { description: "The site's deadlines.", schema: SiteDeadlines } },
      handler: async ({ params, org }) => ({
        status: 200,
        body: await siteDeadlines(ctx, org, params.siteId),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/sites/:siteId/deadlines',
      tag: TAG,
      summary: "Set a site's own deadlines per impact",
      description:
        "Replaces the site's overrides: an impact named is the site's own (null: no deadline), an impact left " +
        "out follows the org's. `{}` makes the site follow the org again. `404` when the site does not exist.",
      access: ['admin'],
      params: SiteParam,
      body: DeadlineOverridesSchema,
      responses: { 200: { description: "The site's deadlines.", schema: SiteDeadlines } },
      handler: async ({ params, body, org }) => ({
        status: 200,
        body: await setSiteDeadlines(ctx, org, params.siteId, body),
      }),
    }),
  ];
}
