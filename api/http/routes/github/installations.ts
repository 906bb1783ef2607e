import type { ApiContext } from '../../../context.js';
import { PageQuery } from '../../../schemas/common.js';
import {
  InstallationLinkList,
  InstallationLinkView,
  InstallationParam,
  LinkInstallationBody,
} from '../../../schemas/github/installations.js';
import {
  linkInstallationToOrg,
  pageOfInstallations,
  unlinkInstallationFromOrg,
} from '../../../services/github/installations.js';
import type { InstallationLink } from '../../../store/github/installations.js';
import { decodeCursor, toPage } from '../../pagination.js';
import { defineRoute, type AnyRoute } from '../../route.js';

const present = (l: InstallationLink) => ({
  installation_id: l.installationId,
  org: l.org,
  created_at: l.createdAt,
});

/** Which org each installation of the GitHub App belongs to (the admin decides; docs/github-app.md). */
export function githubInstallationRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/github/installations',
      tag: 'GitHub App',
      summary: 'Link a GitHub App installation to an org (admin)',
      description:
        "The org's sites may then name repositories of that installation, and their deploy events get check " +
        'runs there. 409 when the installation is linked to another org; linking it again to the same org is 200.',
      access: 'admin-token',
      body: LinkInstallationBody,
      responses: {
        201: { description: 'Linked.', schema: InstallationLinkView },
        200: { description: 'Already linked to this org.', schema: InstallationLinkView },
      },
      handler: async ({ body }) => {
        const { link, created } = await linkInstallationToOrg(ctx, body.installation_id, body.org);
        return { status: created ? 201 : 200, body: present(link) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/github/installations',
      tag: 'GitHub App',
      summary: 'List installation links (admin)',
      access: 'admin-token',
      query: PageQuery,
      responses: {
        200: {
          description: 'Links by installation id.',
          schema: InstallationLinkList,
          headers: { Link: '' },
        },
      },
      handler: async ({ query, req }) => {
        const after = decodeCursor(query.cursor, 1);
        const cursor = after && Number.isSafeInteger(after[0]) ? Number(after[0]) : undefined;
        const rows = await pageOfInstallations(ctx, query.limit + 1, cursor);
        const page = toPage(req, rows, query.limit, (l) => [l.installationId], present);
        return { status: 200, body: page.body, headers: page.headers };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/github/installations/:installation_id',
      tag: 'GitHub App',
      summary: 'Remove an installation link (admin); its repositories get no more check runs',
      access: 'admin-token',
      params: InstallationParam,
      responses: { 204: { description: 'Unlinked.' } },
      handler: async ({ params }) => {
        await unlinkInstallationFromOrg(ctx, params.installation_id);
        return { status: 204 };
      },
    }),
  ];
}
