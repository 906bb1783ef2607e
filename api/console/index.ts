import express, { type Router } from 'express';
import type { ApiContext } from '../context.js';
import { apiLinksForBrowsers } from './api-links.js';
import { serveStylesheet, STYLESHEET_PATH } from './assets.js';
import { consoleErrorHandler, sendNotFound } from './errors.js';
import { action, page } from './guard.js';
import { deployPage, waiveAction } from './pages/gate/deploy.js';
import {
  reportChangesPage,
  reportDownload,
  reportPage,
  reportPublishAction,
  reportReviewAction,
} from './pages/vpat/report.js';
import { nextReportAction, refreshReportAction } from './pages/vpat/report-actions.js';
import { assessmentEarlDownload } from './pages/assessments/earl-download.js';
import { REVIEW_FORM_FIELDS } from './pages/vpat/report-review-form.js';
import { scanPage } from './pages/scans/scan.js';
import { signedScreenshot } from './pages/scans/screenshot.js';
import { signInRoutes } from './pages/access/sign-in.js';
import { gitHubSignInRoutes } from './pages/access/github-sign-in.js';
import { siteOfDeploy, siteOfScan } from '../services/sites/owners.js';
import { siteAssessmentAction, sitePage, siteReportAction, siteSettingsAction } from './pages/sites/site.js';
import { assessmentPage, assessmentResultsAction } from './pages/assessments/workspace.js';
import { sitesPage } from './pages/sites/sites.js';
import { historyPage } from './pages/sites/history.js';
import { portfolioPage } from './pages/portfolio/portfolio.js';
import { createStatementAction } from './pages/statement/site-section.js';
import {
  statementAnswersAction,
  statementDownload,
  statementPage,
  statementPublishAction,
} from './pages/statement/statement.js';
import { startTimer } from './respond.js';

/** The console's pages that look something up (the API's paths keep their own problem answers). */
const CONSOLE_LOOKUPS = /^\/($|(sites|scans|deploys|reports|assessments|statements|screenshots)\/)/;

/**
 * The console: server-rendered pages over the same services as the API, for people with a browser.
 * Paths outside it fall through to the API (and its 404 problem).
 */
export function consoleRouter(ctx: ApiContext): Router {
  const r = express.Router({ strict: false });
  r.use((_req, res, next) => {
    startTimer(res);
    next();
  });
  // No id, cursor or filter value holds a NUL (PostgreSQL refuses it in text): such a look-up names
  // nothing, whichever query would read it.
  r.use((req, res, next) => {
    if (CONSOLE_LOOKUPS.test(req.path) && /%00/.test(req.originalUrl)) sendNotFound(res, undefined);
    else next();
  });
  r.get(STYLESHEET_PATH, serveStylesheet);
  apiLinksForBrowsers(r);
  signInRoutes(r, ctx);
  gitHubSignInRoutes(r, ctx);
  r.get(
    '/',
    page(ctx, ['read'], (v, req, res) => sitesPage(ctx, v, req, res), 'own'),
  );
  r.get(
    '/sites/:siteId',
    page(ctx, ['read'], sitePage(ctx), (_org, req) => String(req.params.siteId)),
  );
  // The whole org's figures: a session limited to some sites does not see it (no siteOf).
  r.get('/portfolio', page(ctx, ['read'], portfolioPage(ctx)));
  r.get(
    '/sites/:siteId/history',
    page(ctx, ['read'], historyPage(ctx), (_org, req) => String(req.params.siteId)),
  );
  r.post('/sites/:siteId/settings', ...action(ctx, ['manage'], siteSettingsAction(ctx)));
  r.post('/sites/:siteId/reports', ...action(ctx, ['manage'], siteReportAction(ctx)));
  r.post('/sites/:siteId/assessments', ...action(ctx, ['manage'], siteAssessmentAction(ctx)));
  r.get('/assessments/:id', page(ctx, ['read'], assessmentPage(ctx)));
  r.post('/assessments/:id/results', ...action(ctx, ['manage'], assessmentResultsAction(ctx)));
  r.get('/assessments/:id/download/earl', page(ctx, ['read'], assessmentEarlDownload(ctx)));
  r.get(
    '/scans/:id',
    page(ctx, ['read'], scanPage(ctx), (org, req) => siteOfScan(ctx, org, String(req.params.id))),
  );
  r.get(
    '/deploys/:id',
    page(ctx, ['gate', 'read'], deployPage(ctx), (org, req) => siteOfDeploy(ctx, org, String(req.params.id))),
  );
  r.get('/screenshots/:file', signedScreenshot(ctx));
  r.post('/deploys/:id/waive', ...action(ctx, ['manage'], waiveAction(ctx)));
  r.get('/reports/:id', page(ctx, ['read'], reportPage(ctx)));
  r.get('/reports/:id/changes', page(ctx, ['read'], reportChangesPage(ctx)));
  r.post(
    '/reports/:id/review',
    ...action(ctx, ['manage'], reportReviewAction(ctx), undefined, {
      limitBytes: ctx.config.limits.reviewRequestBytes,
      parameterLimit: REVIEW_FORM_FIELDS,
    }),
  );
  r.post('/reports/:id/next', ...action(ctx, ['manage'], nextReportAction(ctx)));
  r.post('/reports/:id/refresh', ...action(ctx, ['manage'], refreshReportAction(ctx)));
  r.post('/reports/:id/publish', ...action(ctx, ['manage'], reportPublishAction(ctx)));
  r.get('/reports/:id/download/:format', page(ctx, ['read'], reportDownload(ctx)));
  r.post('/sites/:siteId/statements', ...action(ctx, ['manage'], createStatementAction(ctx)));
  r.get('/statements/:id', page(ctx, ['read'], statementPage(ctx)));
  r.post('/statements/:id/answers', ...action(ctx, ['manage'], statementAnswersAction(ctx)));
  r.post('/statements/:id/publish', ...action(ctx, ['manage'], statementPublishAction(ctx)));
  r.get('/statements/:id/download/:format', page(ctx, ['read'], statementDownload(ctx)));
  r.use(consoleErrorHandler(ctx));
  return r;
}
