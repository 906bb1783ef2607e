import type { ApiContext } from '../../context.js';
import type { AnyRoute } from '../route.js';
import { assessmentResultRoutes } from './assessments/results.js';
import { assessmentRoutes } from './assessments/assessments.js';
import { deletionRoutes } from './sites/deletion.js';
import { deployRoutes } from './gate/deploys.js';
import { claimRoutes } from './gate/claims.js';
import { githubInstallationRoutes } from './github/installations.js';
import { keyRoutes } from './access/keys.js';
import { scanIssueRoutes } from './scans/issues.js';
import { scanPartRoutes } from './scans/parts.js';
import { scanGroupRoutes } from './scans/groups.js';
import { scanRoutes } from './scans/scans.js';
import { scanScreenshotRoutes } from './scans/screenshots.js';
import { historyRoutes } from './history/history.js';
import { fixRoutes } from './portfolio/fixes.js';
import { portfolioRoutes } from './portfolio/portfolio.js';
import { siteHistoryRoutes } from './sites/history.js';
import { siteRoutes } from './sites/sites.js';
import { tagRoutes } from './sites/tags.js';
import { statementRoutes } from './statement/statements.js';
import { vpatRoutes } from './vpat/reports.js';
import { waiverRoutes } from './waivers/waivers.js';
import { webhookRoutes } from './webhooks/subscriptions.js';

/** Every resource router of /api/v1, one module per resource. */
export function resourceRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    ...keyRoutes(ctx),
    ...siteRoutes(ctx),
    ...tagRoutes(ctx),
    ...scanRoutes(ctx),
    ...scanPartRoutes(ctx),
    ...scanGroupRoutes(ctx),
    ...scanIssueRoutes(ctx),
    ...scanScreenshotRoutes(ctx),
    ...deletionRoutes(ctx),
    ...deployRoutes(ctx),
    ...claimRoutes(ctx),
    ...siteHistoryRoutes(ctx),
    ...historyRoutes(ctx),
    ...fixRoutes(ctx),
    ...portfolioRoutes(ctx),
    ...waiverRoutes(ctx),
    ...vpatRoutes(ctx),
    ...assessmentResultRoutes(ctx),
    ...assessmentRoutes(ctx),
    ...webhookRoutes(ctx),
    ...githubInstallationRoutes(ctx),
    ...statementRoutes(ctx),
  ];
}
