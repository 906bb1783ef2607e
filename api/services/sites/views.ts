import type { SiteRecord } from '../../store/sites/sites.js';

/** How the sites endpoints show a site and its settings. */
export function presentSite(s: SiteRecord) {
  return {
    siteId: s.siteId,
    name: s.name,
    url: s.url,
    repository: s.repository,
    base_branch: s.baseBranch,
    gate: s.gate,
    retention: {
      base_branch_days: s.retention.baseBranchDays,
      other_branch_days: s.retention.otherBranchDays,
      deploy_days: s.retention.deployDays,
    },
    pr_comment: s.prComment,
    merge_group_scans: s.mergeGroupScans,
    claims: s.claims,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}
