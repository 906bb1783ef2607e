import client from 'prom-client';
import { migrationsApplied } from '../../store/migrations/index.js';
import { z } from '../../schemas/zod.js';
import type { ApiContext } from '../../context.js';
import { problems } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';

const Health = z.object({ status: z.literal('ok') }).openapi('Health');
const Ready = z
  .object({ status: z.literal('ready'), database: z.string(), migrations: z.literal('applied') })
  .openapi('Readiness');

export function opsRoutes(ctx: ApiContext, metrics: client.Registry): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      tag: 'Operations',
      summary: 'Liveness: the process answers',
      access: 'public',
      responses: { 200: { description: 'Alive.', schema: Health } },
      handler: () => Promise.resolve({ status: 200, body: { status: 'ok' as const } }),
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      tag: 'Operations',
      summary: 'Readiness: database reachable, migrations applied, not shutting down',
      access: 'public',
      responses: { 200: { description: 'Ready to serve.', schema: Ready } },
      handler: async () => {
        if (ctx.lifecycle.shuttingDown) throw problems.unavailable('Shutting down.');
        try {
          await ctx.db.raw('select 1');
        } catch {
          throw problems.unavailable('The database is not reachable.');
        }
        if (!(await migrationsApplied(ctx.db))) throw problems.unavailable('Migrations are pending.');
        return {
          status: 200,
          body: { status: 'ready' as const, database: ctx.dialect, migrations: 'applied' as const },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/metrics',
      tag: 'Operations',
      summary: 'Prometheus metrics (admin token)',
      access: 'admin-token',
      responses: { 200: { description: 'Prometheus text format.', content: { 'text/plain': z.string() } } },
      handler: async () => ({
        status: 200,
        contentType: metrics.contentType,
        body: await metrics.metrics(),
      }),
    }),
  ];
}
