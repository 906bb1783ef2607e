import fs from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Probot, ProbotOctokit, createNodeMiddleware } from 'probot';
import {
  createApiService,
  gateForkScan,
  githubAppConfigured,
  mergeGroupSites,
  withPullRequestComment,
  orgOfInstallation,
  rerunDeploy,
  type ApiContext,
  type ApiService,
  type Config,
  type GitHubApp,
} from '../api/index.js';
import type { Logger } from 'pino';
import { createCheckRunPublisher } from '../app/check-run-publisher.js';
import { createAppFunction } from '../app/index.js';
import { githubInstallations } from '../app/installations.js';
import { gateCommentHook } from '../app/pr-comment-hook.js';
import { quietBadSignatures, withWebhookSource } from './webhook-log.js';

export const WEBHOOKS_PATH = '/api/github/webhooks';

export interface RunningServer {
  server: Server;
  service: ApiService;
  probot?: Probot;
  url: string;
  /** Graceful stop: refuse new work, drain in-flight requests (up to the deadline), close the database. */
  close(): Promise<void>;
}

export interface HostOptions {
  config: Config;
  logger: Logger;
  schema?: string;
  /** Tests inject a Probot built with their own Octokit. */
  probot?: Probot;
  startJobs?: boolean;
}

export function probotFromConfig(config: Config, logger: Logger): Probot | undefined {
  if (!githubAppConfigured(config)) return undefined;
  const g = config.github;
  const privateKey = g.privateKey ?? fs.readFileSync(g.privateKeyPath!, 'utf8');
  return new Probot({
    appId: g.appId!,
    privateKey: privateKey.replace(/\\n/g, '\n'),
    secret: g.webhookSecret!,
    baseUrl: g.apiUrl,
    log: quietBadSignatures(logger.child({ component: 'probot' })),
    Octokit: ProbotOctokit,
  });
}

/**
 * Probot reads a webhook body whole, before the signature can be checked, and sets no limit; anyone can
 * POST to the webhook URL. GitHub always sends Content-Length and caps payloads at 25 MB, so a delivery
 * without one, or above the body limit, is refused before a byte is read (Node's parser never delivers
 * more than the declared length).
 */
function webhookBodyRefusal(
  req: IncomingMessage,
  limitBytes: number,
): { status: number; error: string } | undefined {
  const declared = req.headers['content-length'];
  if (declared === undefined) return { status: 411, error: 'Content-Length is required' };
  if (Number(declared) > limitBytes) {
    return { status: 413, error: `payload larger than ${limitBytes} bytes` };
  }
  return undefined;
}

type WebhookMiddleware = Awaited<ReturnType<typeof createNodeMiddleware>>;

/** The HTTP server: GitHub's webhooks to Probot (when the App is configured), everything else to the API. */
function createHttpServer(
  config: Config,
  api: (req: IncomingMessage, res: ServerResponse) => void,
  webhooks: WebhookMiddleware | undefined,
): Server {
  // Node checks the two timeouts on this interval (default 30 s); keep it finer than the shortest one.
  const checkEvery = Math.max(50, Math.min(30_000, Math.floor(config.headersTimeoutMs / 4)));
  const server = createServer({ connectionsCheckingInterval: checkEvery }, (req, res) => {
    if (webhooks && req.url?.startsWith(WEBHOOKS_PATH)) {
      const refusal = req.method === 'POST' ? webhookBodyRefusal(req, config.limits.bodyBytes) : undefined;
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ error: refusal.error }));
        return;
      }
      void withWebhookSource(req.socket.remoteAddress, () => webhooks(req, res, () => api(req, res)));
      return;
    }
    api(req, res);
  });
  // Slow clients cannot hold connections open forever.
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.keepAliveTimeout = 5_000;
  return server;
}

/** The App's handlers, with the service functions they call. */
function appFunction(ctx: ApiService['ctx'], config: Config) {
  return createAppFunction({
    rerun: (deployId, repository) => rerunDeploy(ctx, deployId, repository),
    forks: {
      installationOrg: (installationId) => orgOfInstallation(ctx, installationId),
      gate: (run, files) => gateForkScan(ctx, run, files),
      bodyLimitBytes: config.limits.bodyBytes,
      timeoutMs: config.github.timeoutMs,
    },
    mergeGroupSites: async (installationId, repository) => {
      const org = await orgOfInstallation(ctx, installationId);
      return org ? mergeGroupSites(ctx, org, repository) : [];
    },
    timeoutMs: config.github.timeoutMs,
  });
}

/**
 * The GitHub App as the service uses it: its installations, and the publication of a deploy decision
 * (check run, then pull request comment) that the outbox worker runs for each decision's GitHub delivery.
 * `ctx` is the service's context, which exists once the service it is handed to is built.
 */
function githubApp(
  probot: Probot,
  config: Config,
  logger: Logger,
  url: () => string,
  ctx: () => ApiContext,
): GitHubApp {
  const timeoutMs = config.github.timeoutMs;
  const baseUrl = () => config.publicUrl ?? url();
  return {
    ...githubInstallations(probot, timeoutMs),
    publish: createCheckRunPublisher({
      probot,
      logger,
      baseUrl,
      installationOrg: (installationId) => orgOfInstallation(ctx(), installationId),
      timeoutMs,
      comment: gateCommentHook({
        probot,
        logger,
        timeoutMs,
        baseUrl,
        // Longer than a comment's few GitHub requests; waiting up to the same again for another writer.
        lease: (key, write) =>
          withPullRequestComment(ctx(), key, { leaseMs: 4 * timeoutMs, waitMs: 5 * timeoutMs }, write),
      }),
    }),
  };
}

/**
 * One HTTP server for both faces: Probot's webhook middleware sees `/api/github/webhooks` with the raw
 * body (its signature check needs the exact bytes); everything else goes to the express API.
 */
export async function startServer(options: HostOptions): Promise<RunningServer> {
  const { config, logger } = options;
  const probot = options.probot ?? probotFromConfig(config, logger);
  let url = '';
  const built: { ctx?: ApiContext } = {};
  const ctx = () => {
    if (!built.ctx) throw new Error('the service is not built yet');
    return built.ctx;
  };
  const github = probot ? githubApp(probot, config, logger, () => url, ctx) : undefined;
  const service = await createApiService({ config, logger, schema: options.schema, github });
  built.ctx = service.ctx;
  let webhooks: WebhookMiddleware | undefined;
  if (probot) {
    webhooks = await createNodeMiddleware(appFunction(service.ctx, config), {
      probot,
      webhooksPath: WEBHOOKS_PATH,
    });
  } else {
    logger.info('GitHub App not configured: the API runs alone and check runs are recorded as skipped');
  }

  const server = createHttpServer(config, service.http.app, webhooks);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
  if (probot && !config.publicUrl) {
    logger.warn(
      { url },
      'PUBLIC_URL is not set: check runs link to the console at this address, which GitHub users may not reach',
    );
  }
  if (options.startJobs !== false) service.startJobs();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      service.ctx.lifecycle.shuttingDown = true;
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownTimeoutMs).unref());
      await Promise.race([drained, deadline]);
      server.closeAllConnections();
      // The delivery worker, a job, finishes or abandons its GitHub deliveries: an abandoned one is
      // claimed again when its lease runs out.
      await service.close();
    })());

  return { server, service, probot, url, close };
}
