import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import client from 'prom-client';
import { Authenticator } from './auth.js';
import type { ApiContext } from '../context.js';
import type { OpenApiWebhook } from '../schemas/webhook-events.js';
import { generateOpenApi } from './openapi.js';
import { methodNotAllowed, mountRoutes } from './mount.js';
import { errorHandler } from './errors.js';
import { mcpEndpoint } from './mcp/endpoint.js';
import type { AnyRoute } from './route.js';
import { resourceRoutes } from './routes/index.js';
import { infoRoutes } from './routes/info.js';
import { opsRoutes } from './routes/ops.js';

export interface HttpAppOptions {
  ctx: ApiContext;
  adminToken: string;
  version: string;
  webhooks?: OpenApiWebhook[];
  /** Pages served beside the API by the same process (the console); mounted before the API's 404. */
  pages?: express.Router;
}

export interface HttpApp {
  app: express.Express;
  routes: AnyRoute[];
  openApiDocument: () => unknown;
  metrics: client.Registry;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The fields of pino's standard request serialiser that the log keeps. */
interface LoggedRequest {
  id: unknown;
  method: string;
  url: string;
  remoteAddress: string;
}

export function createHttpApp(options: HttpAppOptions): HttpApp {
  const { ctx } = options;
  const metrics = new client.Registry();
  client.collectDefaultMetrics({ register: metrics });
  const httpDuration = new client.Histogram({
    name: 'a11y_gate_http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics],
  });

  const limitRefusals = new client.Counter({
    name: 'a11y_gate_limit_refusals_total',
    help: 'Requests refused because a configured limit was reached, by the limit published name.',
    labelNames: ['limit'],
    registers: [metrics],
  });

  const auth = new Authenticator(ctx, options.adminToken, ctx.rateLimits);
  let routes: AnyRoute[] = [];
  let doc: unknown;
  const openApiDocument = () =>
    (doc ??= generateOpenApi({
      version: options.version,
      limits: ctx.config.limits,
      routes,
      webhooks: options.webhooks,
    }));
  routes = [
    ...infoRoutes(ctx, options.version, () => routes, openApiDocument),
    ...opsRoutes(ctx, metrics),
    ...resourceRoutes(ctx),
  ];

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.set('etag', false);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const given = req.get('x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.set('X-Request-Id', id);
    const end = httpDuration.startTimer({ method: req.method });
    res.on('finish', () => {
      // express types the matched route as `any`; its path is the pattern the route was declared with.
      const route = req.route as { path?: string } | undefined;
      end({ route: route?.path ?? 'unmatched', status: String(res.statusCode) });
    });
    next();
  });
  app.use(requestLogger(ctx));
  app.use(helmet());
  app.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  if (options.pages) app.use(options.pages);
  app.use(mountRoutes(routes, { ctx, auth, rateLimits: ctx.rateLimits }));
  // MCP for hosted agents, beside the REST API: the same keys, limits and services.
  app.use(mcpEndpoint({ ctx, auth, rateLimits: ctx.rateLimits, version: options.version }));
  app.use(methodNotAllowed(routes));
  app.use(errorHandler(ctx, (limit) => limitRefusals.inc({ limit })));

  return { app, routes, openApiDocument, metrics };
}

/** The access log: one line per request, its id from X-Request-Id, credentials redacted. */
function requestLogger(ctx: ApiContext) {
  return pinoHttp({
    logger: ctx.logger,
    genReqId: (_req, res) => String((res as Response).locals.requestId),
    // Credentials never reach the log, whatever the level.
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-admin-token"]',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: LoggedRequest) => ({
        id: req.id,
        method: req.method,
        // GitHub's one-time code and the sign-in state stay out of the log like other credentials.
        url: req.url.replace(/([?&](?:code|state)=)[^&]*/g, '$1[redacted]'),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    autoLogging: { ignore: (req) => req.url === '/healthz' },
  });
}
