import { Org } from '../access/keys.js';
import { pageOf, Timestamp } from '../common.js';
import { z } from '../zod.js';

const InstallationId = z
  .number()
  .int()
  .min(1)
  .max(Number.MAX_SAFE_INTEGER)
  .openapi({ description: "The GitHub App installation's id.", example: 4242 });

export const LinkInstallationBody = z
  .object({ installation_id: InstallationId, org: Org })
  .strict()
  .openapi('LinkGitHubInstallation');

export const InstallationParam = z.object({
  installation_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});

export const InstallationLinkView = z
  .object({ installation_id: z.number().int(), org: z.string(), created_at: Timestamp })
  .openapi('GitHubInstallationLink');

export const InstallationLinkList = pageOf(InstallationLinkView, 'GitHubInstallationLinkList');
