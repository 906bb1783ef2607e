import { DeleteScanParam } from '../../../schemas/sites/deletion.js';
import { SiteParam } from '../../../schemas/sites/sites.js';
import { deleteScan, deleteSite } from '../../../services/sites/deletion.js';
import type { ApiContext } from '../../../context.js';
import { defineRoute, type AnyRoute } from '../../route.js';

/** Deleting on request; the retention sweep (services/retention.ts) removes by age. */
export function deletionRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'delete',
      path: '/api/v1/scans/:id',
      tag: 'Scans',
      summary: 'Delete a scan (complete or open)',
      description:
        'Answers 409, with the reason, while a deploy event uses the scan as its head or baseline scan or a ' +
        'VPAT report uses it as evidence: delete the site, or wait until the deploy event passes the ' +
        "site's `retention.deploy_days`. Writes a `scan.deleted` event. The scan is gone from every read " +
        'at once; its pages and issues are removed in short batches.',
      access: 'manage',
      params: DeleteScanParam,
      responses: { 204: { description: 'Deleted.' } },
      handler: async ({ params, org }) => {
        await deleteScan(ctx, org, params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/sites/:siteId',
      tag: 'Sites',
      summary: 'Delete a site and everything of it',
      description:
        'Removes the site with its settings, scans, deploy events, waivers, VPAT reports and assessments, and writes a ' +
        "`site.deleted` event, in one transaction (the scans' pages and issues are removed afterwards in " +
        'short batches by the retention job; they are invisible from the deletion on). Answers 409 while a ' +
        'scan of the site is still receiving parts. A later scan with the same siteId starts a new site.',
      access: 'manage',
      params: SiteParam,
      responses: { 204: { description: 'Deleted.' } },
      handler: async ({ params, org }) => {
        await deleteSite(ctx, org, params.siteId);
        return { status: 204 };
      },
    }),
  ];
}
