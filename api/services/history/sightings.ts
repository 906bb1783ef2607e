import type { ApiContext } from '../../context.js';
import type { HistoryIssue } from '../../schemas/history/history.js';
import { lastSightings, sightingsInLatestScan, type Sighting } from '../../store/history/sightings.js';
import { getSite } from '../../store/sites/sites.js';

/**
 * For each of a site's issues (a page of its history's issues), the scan page that shows it: an open
 * issue in the latest base-branch full scan, any other in the last such scan that had it.
 */
export async function issueSightings(
  ctx: ApiContext,
  org: string,
  siteId: string,
  issues: readonly HistoryIssue[],
): Promise<Map<string, Sighting>> {
  const site = await getSite(ctx.db, org, siteId);
  if (!site) return new Map();
  const ref = { org, siteId };
  const open = issues.filter((i) => i.status === 'open').map((i) => i.fingerprint);
  const closed = issues.filter((i) => i.status !== 'open').map((i) => i.fingerprint);
  const [a, b] = await Promise.all([
    sightingsInLatestScan(ctx.db, ref, site.baseBranch, open),
    lastSightings(ctx.db, ref, site.baseBranch, closed),
  ]);
  return new Map([...a, ...b]);
}
