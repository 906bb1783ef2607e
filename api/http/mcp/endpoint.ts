/**
 * `/mcp`: the gate as tools a hosted coding agent calls, over MCP's Streamable HTTP transport without
 * sessions (each POST is answered on its own). MCP, not REST: the OpenAPI document names it only. The API
 * key is the credential (`Authorization: Bearer`), checked before any MCP handling, with the API's per-key
 * rate limit and body limit; the key's org and scopes apply to every tool.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { ApiContext } from '../../context.js';
import { createBodyReader } from '../body/body.js';
import type { MountDeps } from '../mount.js';
import { HttpProblem, problems } from '../problem.js';
import { consumeKeyBudget } from '../rate-limit.js';
import { serviceMcpServer } from './tools.js';

export const MCP_PATH = '/mcp';

export function mcpEndpoint(deps: MountDeps & { version: string }): Router {
  const { ctx } = deps;
  const router = express.Router();
  const readBody = createBodyReader(ctx.config.limits.bodyBytes);

  async function handle(req: Request, res: Response): Promise<void> {
    const principal = await deps.auth.authenticate(req, 'key');
    if (principal?.kind !== 'key') throw problems.unauthorized('An API key is required.');
    res.set(await consumeKeyBudget(deps.rateLimits, principal.keyId, ctx.config.limits.requestsPerMinute));
    if (req.method !== 'POST') {
      // Without sessions there is no stream to open (GET) nor session to end (DELETE).
      throw new HttpProblem(
        405,
        'method_not_allowed',
        `${req.method} is not supported here: POST each JSON-RPC message (MCP Streamable HTTP, no sessions).`,
        undefined,
        { Allow: 'POST' },
      );
    }
    if (ctx.lifecycle.shuttingDown)
      throw problems.unavailable('The service is shutting down; retry shortly.');
    await readBody(req, res);
    const requestId = String(res.locals.requestId);
    const log = (req as Request & { log?: ApiContext['logger'] }).log ?? ctx.logger;
    const server = serviceMcpServer(
      ctx,
      { org: principal.org, scopes: principal.scopes, requestId, log },
      deps.version,
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  router.all(MCP_PATH, (req: Request, res: Response, next: NextFunction) => {
    handle(req, res).catch(next);
  });
  return router;
}
