import type { ApiContext } from '../../context.js';
import type { AnyRoute } from '../route.js';
import { deletionRoutes } from './deletion.js';
import { deployRoutes } from './deploys.js';
import { githubInstallationRoutes } from './github-installations.js';
import { keyRoutes } from './keys.js';
import { scanPartRoutes } from './scan-parts.js';
import { scanRoutes } from './scans.js';
import { siteHistoryRoutes } from './site-history.js';
import { siteRoutes } from './sites.js';
import { vpatRoutes } from './vpat.js';
import { waiverRoutes } from './waivers.js';
import { webhookRoutes } from './webhooks.js';

/** Every resource router of /api/v1, one module per resource. */
export function resourceRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    ...keyRoutes(ctx),
    ...siteRoutes(ctx),
    ...scanRoutes(ctx),
    ...scanPartRoutes(ctx),
    ...deletionRoutes(ctx),
    ...deployRoutes(ctx),
    ...siteHistoryRoutes(ctx),
    ...waiverRoutes(ctx),
    ...vpatRoutes(ctx),
    ...webhookRoutes(ctx),
    ...githubInstallationRoutes(ctx),
  ];
}
