import { consolePaths, consoleUrl } from '../../../domain/console-links.js';
import { IdParam } from '../../../schemas/common.js';
import { DeployEventSchema, DeployTriggerBody } from '../../../schemas/gate/deploys.js';
import { deployEventJson } from '../../../services/gate/deploy-json.js';
import { triggerGate } from '../../../services/gate/triggers.js';
import type { ApiContext } from '../../../context.js';
import { defineRoute, type AnyRoute } from '../../route.js';

export function deployRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/deploy/trigger',
      queued: true,
      tag: 'Deploy gate',
      summary: 'May this commit deploy? Evaluate the gate and record a deploy event',
      description:
        'Compares the latest scan of `sha` with a baseline (the scan of `baseline_sha`, else the latest earlier ' +
        "scan on the site's base branch, else none) and checks the thresholds on new issues (all issues with " +
        '`new_only: false`); active waivers take matching issues out of the counts. A failed gate is still ' +
        '201: read `passed`. `404` when the site does not exist (sites are created by their first scan).',
      access: 'gate',
      body: DeployTriggerBody,
      responses: {
        201: {
          description: 'The deploy event.',
          schema: DeployEventSchema,
          headers: {
            Location: '',
            Link:
              'Only when the server has a PUBLIC_URL: `<{PUBLIC_URL}/deploys/{id}>; rel="alternate"; type="text/html"`, ' +
              'the console page of this deploy event for people (the Action’s `details-url`).',
          },
        },
      },
      handler: async ({ body, org }) => {
        const event = await triggerGate(ctx, org, body);
        const page = consoleUrl(ctx.config.publicUrl, consolePaths.deploy(event.id));
        const headers: Record<string, string> = { Location: `/api/v1/deploy/${event.id}` };
        if (page) headers.Link = `<${page}>; rel="alternate"; type="text/html"`;
        return { status: 201, headers, body: event };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/deploy/:id',
      tag: 'Deploy gate',
      summary: 'A deploy event, as decided (with its check run’s current state)',
      description: 'The decision is a record: later waivers or scans do not change it.',
      access: ['gate', 'read'],
      params: IdParam,
      responses: { 200: { description: 'The deploy event.', schema: DeployEventSchema } },
      handler: async ({ params, org }) => ({
        status: 200,
        body: await deployEventJson(ctx, org, params.id),
        contentType: 'application/json',
      }),
    }),
  ];
}
