import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import {
  findInstallation,
  linkInstallation,
  listInstallations,
  unlinkInstallation,
  type InstallationLink,
} from '../../store/github/installations.js';

/**
 * Who may post where: a check run goes to a repository only when GitHub says the repository belongs to
 * an installation of the App that is linked to the deploy event's org. GITHUB_INSTALLATIONS_ORG links
 * every installation to one org (a single-tenant server); otherwise the admin links each one.
 */
export async function orgOfInstallation(
  ctx: ApiContext,
  installationId: number,
): Promise<string | undefined> {
  return ctx.config.github.installationsOrg ?? (await findInstallation(ctx.db, installationId))?.org;
}

export async function linkInstallationToOrg(
  ctx: ApiContext,
  installationId: number,
  org: string,
): Promise<{ link: InstallationLink; created: boolean }> {
  const now = nowIso();
  const result = await linkInstallation(ctx.db, { installationId, org, createdAt: now });
  if (result.org !== org) {
    throw domainErrors.conflict(`Installation ${installationId} is linked to another org; unlink it first.`);
  }
  const link = (await findInstallation(ctx.db, installationId))!;
  if (result.created) ctx.logger.info({ installation_id: installationId, org }, 'GitHub installation linked');
  return { link, created: result.created };
}

export async function unlinkInstallationFromOrg(ctx: ApiContext, installationId: number): Promise<void> {
  if (!(await unlinkInstallation(ctx.db, installationId))) throw domainErrors.notFound('installation link');
  ctx.logger.info({ installation_id: installationId }, 'GitHub installation unlinked');
}

export function pageOfInstallations(
  ctx: ApiContext,
  limit: number,
  after?: number,
): Promise<InstallationLink[]> {
  return listInstallations(ctx.db, limit, after);
}

/**
 * Why `repository` may not be used by `org` for check runs, or undefined when it may: GitHub must name
 * an installation of the App for it, linked to the org. Without the App nothing is ever posted, so
 * there is nothing to check.
 */
export async function repositoryRefusal(
  ctx: ApiContext,
  org: string,
  repository: string,
): Promise<string | undefined> {
  const single = ctx.config.github.installationsOrg;
  if (single) {
    return single === org
      ? undefined
      : `this server links every GitHub installation to the org "${single}" (GITHUB_INSTALLATIONS_ORG)`;
  }
  if (!ctx.github) return undefined;
  let installationId: number | undefined;
  try {
    installationId = await ctx.github.installationOf(repository);
  } catch (err) {
    ctx.logger.warn({ err, repository }, 'installation lookup failed');
    return `GitHub could not be asked which installation ${repository} belongs to; try again`;
  }
  if (installationId === undefined) return `the GitHub App is not installed on ${repository}`;
  const linked = await orgOfInstallation(ctx, installationId);
  return linked === org
    ? undefined
    : `${repository} belongs to GitHub installation ${installationId}, which is not linked to this org (POST /api/v1/github/installations)`;
}

/** Refuses (422, `#/repository`) a repository the org may not post check runs to. */
export async function assertRepositoryAllowed(
  ctx: ApiContext,
  org: string,
  repository: string,
): Promise<void> {
  const refused = await repositoryRefusal(ctx, org, repository);
  if (refused) throw domainErrors.invalid([{ pointer: '#/repository', detail: refused }]);
}
