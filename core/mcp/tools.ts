/**
 * The tools the local server (`a11y-gate mcp`, stdio) and the service (`/mcp`, Streamable HTTP) share: one
 * definition each, registered on either transport's server. Each side hands in what only it can do: reach the
 * gate (through the API client, or the service's own code under the key's org and scopes) and find a finding.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { explainRule, type AxeRuleMeta, type ExplainedElement } from '../catalog/explanation.js';
import type { DeployEvent } from '../gate/deploy-event.js';
import { guarded, messageOf, toolResult, ToolError, type ErrorText } from './results.js';
import * as S from './schemas.js';
import { deployIssuesView, gateView } from './views.js';

/** What `gate` asks of the deploy gate. */
export interface GateRequest {
  siteId: string;
  sha: string;
  baseline_sha?: string;
  ref?: string;
}

/** The deploy gate, as one side reaches it. Its errors are read by the agent (see ErrorText). */
export interface GateBackend {
  trigger(request: GateRequest): Promise<{ event: DeployEvent; detailsUrl: string | null }>;
  deployEvent(id: string): Promise<DeployEvent>;
}

/** Where `explain` finds a rule's metadata and the element a fingerprint names. */
export interface ExplainSources {
  rule(ruleId: string): Promise<AxeRuleMeta | undefined>;
  /** Throws a ToolError saying where to get one when nothing has the fingerprint. */
  finding(
    fingerprint: string,
    deployId: string | undefined,
  ): Promise<{ rule: string; element: ExplainedElement }>;
}

export function registerGateTools(
  server: McpServer,
  backend: GateBackend,
  errorText: ErrorText = messageOf,
): void {
  server.registerTool(
    'gate',
    {
      title: 'Ask the deploy gate about a commit',
      description:
        "Compares the latest scan of the commit (sent by the pipeline or `a11y-gate scan --api-url`) with the site's " +
        'baseline and records a deploy event. Returns passed, the reasons, the counts of new issues by impact and the ' +
        'deploy_id; deploy_issues lists the new issues with their fingerprints. Needs the "gate" scope.',
      inputSchema: S.GateInput,
      outputSchema: S.GateOutput,
    },
    (input) =>
      guarded(async () => {
        const { event, detailsUrl } = await backend.trigger(input);
        return toolResult(gateView(event, detailsUrl));
      }, errorText),
  );
  server.registerTool(
    'deploy_issues',
    {
      title: 'List the new issues of a deploy event',
      description:
        'The issues a deploy event (from gate) counted as new: fingerprint, rule, impact, page, selector, HTML and ' +
        'path:line when located. Fix them and claim their fingerprints as fixed; explain takes them with deploy_id. ' +
        'Needs the "gate" or "read" scope.',
      inputSchema: S.DeployIssuesInput,
      outputSchema: S.DeployIssuesOutput,
    },
    (input) =>
      guarded(
        async () => toolResult(deployIssuesView(await backend.deployEvent(input.deploy_id))),
        errorText,
      ),
  );
}

async function explain(
  sources: ExplainSources,
  input: { fingerprint?: string; deploy_id?: string; rule?: string },
) {
  const found = input.fingerprint ? await sources.finding(input.fingerprint, input.deploy_id) : null;
  const ruleId = found?.rule ?? input.rule;
  if (!ruleId) throw new ToolError('Give a fingerprint of a finding, or a rule id.');
  const meta = await sources.rule(ruleId);
  if (!meta) throw new ToolError(`axe-core has no rule "${ruleId}".`);
  return explainRule(meta, found?.element ?? null);
}

export function registerExplainTool(
  server: McpServer,
  sources: ExplainSources,
  errorText: ErrorText = messageOf,
): void {
  server.registerTool(
    'explain',
    {
      title: 'Explain a finding',
      description:
        'One finding (by fingerprint: from an earlier scan, or a new issue of a deploy event with deploy_id) or one ' +
        'axe-core rule: the rule in plain words, the element, the steps that fix it, and the WCAG criteria with how ' +
        'a person tests each.',
      inputSchema: S.ExplainInput,
      outputSchema: S.ExplanationOutput,
    },
    (input) => guarded(async () => toolResult({ ...(await explain(sources, input)) }), errorText),
  );
}
