import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { findScan } from '../../store/scans/scans.js';
import { readDeployEvent } from '../gate/triggers.js';

/*
 * Which site a page's subject belongs to, for a console session limited to some sites (signed in with
 * GitHub). Another org's id, or an unknown one, is not found, as everywhere.
 */

export async function siteOfScan(ctx: ApiContext, org: string, scanId: string): Promise<string> {
  const scan = await findScan(ctx.db, org, scanId);
  if (!scan) throw domainErrors.notFound('scan');
  return scan.siteId;
}

export async function siteOfDeploy(ctx: ApiContext, org: string, deployId: string): Promise<string> {
  return (await readDeployEvent(ctx, org, deployId)).siteId;
}
