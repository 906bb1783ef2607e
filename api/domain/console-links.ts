/**
 * Where the console shows a thing, for links people follow from GitHub, the Action and webhooks. Pure:
 * the base is the configured public URL (PUBLIC_URL), never guessed from a request.
 */

export const consolePaths = {
  deploy: (id: string) => `/deploys/${encodeURIComponent(id)}`,
  scan: (id: string) => `/scans/${encodeURIComponent(id)}`,
  report: (id: string) => `/reports/${encodeURIComponent(id)}`,
  site: (siteId: string) => `/sites/${encodeURIComponent(siteId)}`,
  statement: (id: string) => `/statements/${encodeURIComponent(id)}`,
};

/** The console page of an event's subject: the scan, deploy event, report or statement version, or the site of a waiver or an overdue issue. */
export function eventConsolePath(type: string, data: unknown): string | undefined {
  const d = data as { id?: unknown; siteId?: unknown };
  const id = typeof d.id === 'string' ? d.id : undefined;
  const siteId = typeof d.siteId === 'string' ? d.siteId : undefined;
  if (type === 'scan.created' && id) return consolePaths.scan(id);
  if (type === 'deploy.completed' && id) return consolePaths.deploy(id);
  const deployId = (data as { deploy_id?: unknown }).deploy_id;
  if (type === 'deploy.claim_accepted' && typeof deployId === 'string') return consolePaths.deploy(deployId);
  if (type.startsWith('vpat.') && id) return consolePaths.report(id);
  if ((type.startsWith('waiver.') || type === 'sla.breached') && siteId) return consolePaths.site(siteId);
  if (type.startsWith('statement.') && id) return consolePaths.statement(id);
  return undefined;
}

/** `base` + `path`, or nothing without a base (a link to an address nobody can reach is worse than none). */
export function consoleUrl(base: string | undefined, path: string | undefined): string | undefined {
  return base && path ? `${base.replace(/\/+$/, '')}${path}` : undefined;
}
