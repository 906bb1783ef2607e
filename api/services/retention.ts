import type { ApiContext } from '../context.js';
import { deletedScans, deleteExpiredDeploys, markExpiredScans, sitesAfter } from '../store/retention.js';
import { deleteScanRows, DELETE_BATCH } from '../store/scans/deletion.js';

/**
 * The retention sweep. One run does a bounded amount of work, every statement of it bounded too, and
 * holds no transaction, so requests never wait long behind it: it removes the rows of a few scans
 * already marked `deleted`, then walks a page of sites (resuming where the previous run stopped),
 * removing each site's deploy events past `deploy_days` and marking its scans past their period.
 * Deploy events go first, so a scan that only an expired deploy event used can go in the same run.
 */

export interface SweepLimits {
  /** Sites looked at per run. */
  sites: number;
  /** Deploy events removed per statement, and statements per site and run. */
  deployBatch: number;
  deployStatements: number;
  /** Scans marked per site and run, and scans whose rows are removed per run. */
  scans: number;
  /** Issues (or pages) removed per statement. */
  rowBatch: number;
}

export const SWEEP_LIMITS: SweepLimits = {
  sites: 100,
  deployBatch: 500,
  deployStatements: 4,
  scans: 20,
  rowBatch: DELETE_BATCH,
};

export interface SweepResult {
  sites: number;
  deploys: number;
  scansMarked: number;
  scansRemoved: number;
  /** True when the walk reached the last site (the next run starts again at the first). */
  wrapped: boolean;
}

const DAY = 86_400_000;
const before = (now: number, days: number) => new Date(now - days * DAY).toISOString();

/** Keeps its place among the sites between runs (one per process; the work is idempotent). */
export class RetentionSweep {
  private after: { org: string; siteId: string } | undefined;

  constructor(
    private readonly ctx: ApiContext,
    private readonly limits: SweepLimits = SWEEP_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  async run(): Promise<SweepResult> {
    const { db } = this.ctx;
    const l = this.limits;
    const result: SweepResult = { sites: 0, deploys: 0, scansMarked: 0, scansRemoved: 0, wrapped: false };
    const now = this.clock();
    const sites = await sitesAfter(db, this.after, l.sites);
    for (const s of sites) {
      const site = { org: s.org, siteId: s.site_id };
      for (let i = 0; i < l.deployStatements; i++) {
        const n = await deleteExpiredDeploys(
          db,
          site,
          before(now, Number(s.retention_deploy_days)),
          l.deployBatch,
        );
        result.deploys += n;
        if (n < l.deployBatch) break;
      }
      const marked = await markExpiredScans(
        db,
        {
          ...site,
          baseBranch: s.base_branch,
          base: before(now, Number(s.retention_base_branch_days)),
          other: before(now, Number(s.retention_other_branch_days)),
        },
        l.scans,
      );
      result.scansMarked += marked.length;
      result.sites++;
    }
    result.wrapped = sites.length < l.sites;
    this.after = result.wrapped ? undefined : { org: sites.at(-1)!.org, siteId: sites.at(-1)!.site_id };
    for (const id of await deletedScans(db, l.scans)) {
      await deleteScanRows(db, id, l.rowBatch);
      result.scansRemoved++;
    }
    if (result.deploys + result.scansMarked + result.scansRemoved > 0) {
      this.ctx.logger.info({ ...result }, 'retention sweep removed expired records');
    }
    return result;
  }
}
