import { z } from '../../schemas/zod.js';
import type { ApiContext } from '../../context.js';
import { PublishedLimits } from '../../schemas/limits.js';
import { publishedLimits } from '../openapi.js';
import { accessLabel, defineRoute, openApiPath, type AnyRoute } from '../route.js';

const Info = z
  .object({
    name: z.string(),
    version: z.string(),
    api_version: z.literal('v1'),
    openapi: z.string(),
    limits: PublishedLimits,
    endpoints: z.array(
      z.object({
        method: z.string(),
        path: z.string(),
        auth: z.string().openapi({
          description: '`none`, `admin`, `key` (any key), the required scope, or scopes joined by `or`.',
        }),
        summary: z.string(),
      }),
    ),
  })
  .openapi('ServiceInfo');

/** GET /api/v1 and the OpenAPI document; both describe the full route list they are given. */
export function infoRoutes(
  ctx: ApiContext,
  version: string,
  allRoutes: () => AnyRoute[],
  openApiDocument: () => unknown,
): AnyRoute[] {
  const l = ctx.config.limits;
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1',
      tag: 'Service',
      summary: 'Describe the service: endpoints, credentials and limits',
      access: 'public',
      responses: { 200: { description: 'Service description.', schema: Info } },
      handler: () =>
        Promise.resolve({
          status: 200,
          body: {
            name: 'a11y-gate',
            version,
            api_version: 'v1' as const,
            openapi: '/api/v1/openapi.json',
            limits: publishedLimits(l),
            endpoints: allRoutes().map((r) => ({
              method: r.method.toUpperCase(),
              path: openApiPath(r.path),
              auth: accessLabel(r.access),
              summary: r.summary,
            })),
          },
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/openapi.json',
      tag: 'Service',
      summary: 'OpenAPI 3.1 document, generated from the schemas that validate requests',
      access: 'public',
      responses: { 200: { description: 'The OpenAPI document.', schema: z.record(z.string(), z.unknown()) } },
      handler: () => Promise.resolve({ status: 200, body: openApiDocument() }),
    }),
  ];
}
