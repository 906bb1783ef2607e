/**
 * `a11y-gate mcp`: the gate as tools a local coding agent calls over stdio (the Model Context Protocol).
 * It scans with the local browser, explains a finding, and verifies claimed fixes element by element.
 * stdout carries the protocol only: everything else goes to stderr.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { verifyClaims, type ClaimAnswer } from '../../core/claims/verification.js';
import { viewportPageKey } from '../../core/matching/fingerprint.js';
import { registerResources } from '../../core/mcp/resources.js';
import { guarded, toolResult, ToolError } from '../../core/mcp/results.js';
import {
  registerExplainTool,
  registerGateTools,
  type ExplainSources,
  type GateBackend,
} from '../../core/mcp/tools.js';
import { deployIssueElement } from '../../core/mcp/views.js';
import { normalizeUrl, pageKey } from '../../core/url-normalisation.js';
import { sourceText } from '../../core/gate/finding-text.js';
import { axeRules } from '../../scanner/axe.js';
import * as S from './schemas.js';
import { elementsOf, mcpFinding, pageAgain, runScan, ScanMemory, type ScanTarget } from './scans.js';
import { serviceBackend, type McpService } from './service.js';

/**
 * Where the local `explain` finds a fingerprint: this session's scans, or with a deploy id the service's
 * deploy event (when one is configured).
 */
function explainSources(memory: ScanMemory, gate: GateBackend | null): ExplainSources {
  return {
    rule: (ruleId) => Promise.resolve(axeRules().find((r) => r.ruleId === ruleId)),
    async finding(fingerprint, deployId) {
      if (deployId) {
        if (!gate)
          throw new ToolError('deploy_id needs a service: start a11y-gate mcp with --api-url and --api-key.');
        return deployIssueElement(await gate.deployEvent(deployId), fingerprint);
      }
      const f = memory.finding(fingerprint);
      if (!f)
        throw new ToolError(`No finding of this session has the fingerprint ${fingerprint}: scan first.`);
      const location = sourceText(f);
      return {
        rule: f.rule,
        element: { page_url: f.pageUrl, selector: f.selector, html: f.html, location, message: f.message },
      };
    },
  };
}

/** Rescans the pages of the claims of one earlier scan, keeping the passing elements, and answers each. */
async function verify(
  memory: ScanMemory,
  claims: string[],
  chromePath: string | null,
): Promise<ClaimAnswer[]> {
  const answers = new Map<string, ClaimAnswer>();
  const groups = new Map<ReturnType<ScanMemory['scanOf']>, string[]>();
  for (const c of claims) groups.set(memory.scanOf(c), [...(groups.get(memory.scanOf(c)) ?? []), c]);
  for (const [earlier, group] of groups) {
    if (!earlier) {
      for (const a of verifyClaims(group, [], { pages: [], violations: [], passes: [], passPages: [] }))
        answers.set(a.fingerprint, a);
      continue;
    }
    const claimed = earlier.findings.filter((f) => group.includes(mcpFinding(f).fingerprint));
    const urls = [...new Set(claimed.map((f) => pageAgain(earlier.target, f.pageUrl)))];
    const run = await runScan({ ...earlier.target, urls }, chromePath, true);
    const pages = run.pages.flatMap((p) =>
      p.ok ? [viewportPageKey(pageKey(normalizeUrl(p.url) ?? p.url), p.viewport)] : [],
    );
    // The rescan keeps every page's passing elements.
    const rescan = { pages, passPages: pages, ...elementsOf(run.pages) };
    for (const a of verifyClaims(group, earlier.elements, rescan)) answers.set(a.fingerprint, a);
  }
  return claims.map((c) => answers.get(c)!);
}

export interface McpOptions {
  chromePath: string | null;
  version: string;
  /** The service `gate` and `deploy_issues` ask; without one they are not listed. */
  service: McpService | null;
  log: (line: string) => void;
}

export function createMcpServer(options: McpOptions): McpServer {
  const server = new McpServer({ name: 'a11y-gate', version: options.version });
  const memory = new ScanMemory();
  const gate = options.service ? serviceBackend(options.service, options.log) : null;
  server.registerTool(
    'scan',
    {
      title: 'Scan pages for accessibility issues',
      description:
        'Runs axe-core in a local Chromium on URLs, or on a built folder served on loopback, at the viewports given. ' +
        'Returns each violation with its fingerprint (the issue identity), rule, impact, selector, HTML and path:line ' +
        'when located. Keep the fingerprints: explain and verify take them.',
      inputSchema: S.ScanInput,
      outputSchema: S.ScanOutput,
    },
    (input) =>
      guarded(async () => {
        const target: ScanTarget = {
          urls: input.urls,
          serve: input.serve ?? null,
          viewports: input.viewports,
          sourceRoot: input.source_root ?? null,
        };
        const run = await runScan(target, options.chromePath);
        const findings = memory.remember(target, run);
        return toolResult({
          pages: run.pages.map((p) => ({
            url: p.url,
            viewport: p.viewport ?? null,
            ok: p.ok,
            error: p.ok ? null : p.error,
          })),
          findings: findings.map(mcpFinding),
        });
      }),
  );
  registerExplainTool(server, explainSources(memory, gate));
  server.registerTool(
    'verify',
    {
      title: 'Verify claimed fixes',
      description:
        'After changing the code, name the fingerprints the change claims to fix. The pages are scanned again and ' +
        'each claim answered: verified (same element, rule passes), removed (element gone, nothing new of the rule ' +
        'on the page), not_fixed, needs_person (a text rule passes: a person must accept the new text shown ' +
        'beside the old), unknown (no finding of this session has it), not_rescanned (its page did not load).',
      inputSchema: S.VerifyInput,
      outputSchema: S.VerifyOutput,
    },
    (input) =>
      guarded(async () => {
        const claims = await verify(memory, input.claims, options.chromePath);
        const done = claims.every((c) => c.outcome === 'verified' || c.outcome === 'removed');
        return toolResult({ claims, done });
      }),
  );
  if (gate) registerGateTools(server, gate);
  registerResources(server);
  return server;
}

/** Serves over stdio until the client closes the stream. */
export async function runMcp(options: McpOptions): Promise<void> {
  const server = createMcpServer(options);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    // The transport does not end with its input: the client closing stdin ends the server.
    process.stdin.once('end', resolve);
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write('a11y-gate mcp: serving the Model Context Protocol on stdio\n');
  await closed;
  await server.close();
}
