import { PortfolioQuery, Portfolio } from '../../../schemas/portfolio/view.js';
import { Section508, Section508Query } from '../../../schemas/portfolio/section508.js';
import { z } from '../../../schemas/zod.js';
import { section508, section508Csv } from '../../../services/portfolio/section508.js';
import { portfolioCsv, portfolioView } from '../../../services/portfolio/view.js';
import type { ApiContext } from '../../../context.js';
import { csvAnswer, wantsCsv } from '../../csv.js';
import { defineRoute, type AnyRoute } from '../../route.js';

const TAG = 'Portfolio';

export function portfolioRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/portfolio',
      tag: TAG,
      summary: "The org's view: per group and in all, open issues and trend, overdue, regressions, top fixes",
      description:
        'Over a range of days (default: this month so far, against the end of last month): which sites got ' +
        'worse, how many issues are overdue and where, and the fixes that clear the most. `?format=csv` (or ' +
        '`Accept: text/csv`) gives one row per site. `404` when no site carries the `group`.',
      access: 'read',
      query: PortfolioQuery,
      responses: {
        200: { description: 'The view.', schema: Portfolio, content: { 'text/csv': z.string() } },
      },
      handler: async ({ query, org, req }) => {
        const body = await portfolioView(ctx, org, query);
        if (!wantsCsv(query.format, req.headers.accept)) return { status: 200, body };
        return csvAnswer(portfolioCsv(body), `portfolio-${body.from}-${body.to}.csv`);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/portfolio/section508',
      tag: TAG,
      summary:
        'The Section 508 figures of a year: pages in scope, tested automatically, assessed, fully conformant',
      description:
        'Per site and in all. `?format=csv` (or `Accept: text/csv`) gives one row per site. `404` when no site ' +
        'carries the `group`.',
      access: 'read',
      query: Section508Query,
      responses: {
        200: { description: 'The figures.', schema: Section508, content: { 'text/csv': z.string() } },
      },
      handler: async ({ query, org, req }) => {
        const body = await section508(ctx, org, query);
        if (!wantsCsv(query.format, req.headers.accept)) return { status: 200, body };
        return csvAnswer(section508Csv(body), `section508-${body.year}.csv`);
      },
    }),
  ];
}
