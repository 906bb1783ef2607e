/**
 * The service's MCP server for one request: the tools it shares with `a11y-gate mcp` (core/mcp), run by the
 * service's own code under the key's org and scopes, the same services and rules as `/api/v1`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerResources } from '../../../core/mcp/resources.js';
import { ToolError } from '../../../core/mcp/results.js';
import { registerExplainTool, registerGateTools, type GateBackend } from '../../../core/mcp/tools.js';
import { deployIssueElement } from '../../../core/mcp/views.js';
import type { ApiContext } from '../../context.js';
import type { Scope } from '../../domain/access/api-key.js';
import { consolePaths, consoleUrl } from '../../domain/console-links.js';
import { DeployTriggerBody } from '../../schemas/gate/deploys.js';
import { readDeployEvent, triggerGate } from '../../services/gate/triggers.js';
import { axeRuleMeta } from '../../services/vpat/axe-rule-coverage.js';
import { scopeRefusal } from '../auth.js';
import { toProblem } from '../errors.js';
import { validateOrThrow } from '../validate.js';

/** Whom one `/mcp` request acts for. */
export interface McpCaller {
  org: string;
  scopes: Scope[];
  requestId: string;
  log: ApiContext['logger'];
}

/** The same refusal as the REST route's 403, as a tool error the agent reads. */
function requireScope(caller: McpCaller, anyOf: Scope[]): void {
  const refusal = scopeRefusal(anyOf, caller.scopes);
  if (refusal) throw new ToolError(refusal);
}

/** A refusal reads as the REST answer's detail; a fault of the service is logged and named by request id. */
function errorText(caller: McpCaller) {
  return (e: unknown): string => {
    if (e instanceof ToolError) return e.message;
    const problem = toProblem(e);
    if (problem.status >= 500) {
      caller.log.error({ err: e, requestId: caller.requestId }, 'mcp tool failed');
      return `${problem.detail} (request id ${caller.requestId})`;
    }
    const fields = (problem.errors ?? []).map((f) => `${f.pointer}: ${f.detail}`).join('; ');
    return fields ? `${problem.detail} (${fields})` : problem.detail;
  };
}

function gateBackend(ctx: ApiContext, caller: McpCaller): GateBackend {
  return {
    async trigger(request) {
      requireScope(caller, ['gate']);
      const body = validateOrThrow(DeployTriggerBody, request, '#');
      // The gate is a heavy write: it takes its turn as POST /api/v1/deploy/trigger does.
      const leave = await ctx.writes.enter();
      try {
        const event = await triggerGate(ctx, caller.org, body);
        const page = consoleUrl(ctx.config.publicUrl, consolePaths.deploy(event.id));
        return { event, detailsUrl: page ?? null };
      } finally {
        leave();
      }
    },
    deployEvent(id) {
      requireScope(caller, ['gate', 'read']);
      return readDeployEvent(ctx, caller.org, id);
    },
  };
}

export function serviceMcpServer(ctx: ApiContext, caller: McpCaller, version: string): McpServer {
  const server = new McpServer({ name: 'a11y-gate', version });
  const gate = gateBackend(ctx, caller);
  const text = errorText(caller);
  registerGateTools(server, gate, text);
  registerExplainTool(
    server,
    {
      rule: axeRuleMeta,
      async finding(fingerprint, deployId) {
        // The service keeps no session: a fingerprint is a deploy event's new issue.
        if (!deployId) throw new ToolError('Give deploy_id (from gate) with the fingerprint, or a rule id.');
        return deployIssueElement(await gate.deployEvent(deployId), fingerprint);
      },
    },
    text,
  );
  registerResources(server);
  return server;
}
