import type { DeployAccess, PublishableDeploy } from './check-run-publisher.js';
import type { IssuePicture } from './check-run-payload.js';
import { type CheckRunUpdate } from '../core/github/check-run.js';

/**
 * The deploy event as the check-run publisher reads it. Structural, so the publisher does not depend on
 * the API's schema module; api/index.ts's `DeployEvent` satisfies it.
 */
type StoredDeploy = {
  org: string;
  repository: string | null;
  pullRequest?: number | null;
  prComment?: boolean;
  event: PublishableDeploy['result'] & {
    repository?: string | null;
    check_run?: {
      status: CheckRunUpdate['status'];
      id: number | null;
      url: string | null;
      error: string | null;
    };
  };
};

/** The gate service's functions the App uses (api/services/gate/triggers.ts, through api/index.ts). */
export interface DeployStore<Ctx> {
  findDeploy(ctx: Ctx, id: string): Promise<StoredDeploy | undefined>;
  setDeployCheckRun(ctx: Ctx, id: string, state: CheckRunUpdate): Promise<void>;
  /** The element screenshots of a scan's issues by fingerprint (api/services/scans/screenshot-links.ts). */
  issueScreenshots?(
    ctx: Ctx,
    org: string,
    scanId: string | null,
    fingerprints: readonly string[],
  ): Promise<ReadonlyMap<string, IssuePicture>>;
}

/** Adapts the gate service to what the publisher needs: load a deploy event, record its check run. */
export function deployAccess<Ctx>(ctx: Ctx, store: DeployStore<Ctx>): DeployAccess {
  return {
    async load(deployId) {
      const found = await store.findDeploy(ctx, deployId);
      if (!found) return undefined;
      const cr = found.event.check_run;
      const fingerprints = found.event.new_issues.map((i) => i.fingerprint);
      const pictures = store.issueScreenshots
        ? await store.issueScreenshots(ctx, found.org, found.event.scan_id, fingerprints)
        : undefined;
      return {
        org: found.org,
        repository: found.repository ?? found.event.repository ?? null,
        result: found.event,
        pullRequest: found.pullRequest ?? null,
        prComment: found.prComment ?? true,
        checkRun: cr
          ? {
              status: cr.status,
              ...(cr.id !== null ? { id: cr.id } : {}),
              ...(cr.url !== null ? { url: cr.url } : {}),
              ...(cr.error !== null ? { error: cr.error } : {}),
            }
          : null,
        ...(pictures ? { pictures } : {}),
      };
    },
    setCheckRun: (deployId, state) => store.setDeployCheckRun(ctx, deployId, state),
  };
}
