/**
 * `a11y-gate mcp`: the gate as tools a local coding agent calls over stdio (the Model Context Protocol).
 * It scans with the local browser, explains a finding, and verifies claimed fixes element by element.
 * stdout carries the protocol only: everything else goes to stderr.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { verifyClaims, type ClaimAnswer } from '../../core/claims/verification.js';
import { explainRule } from '../../core/catalog/explanation.js';
import { PROCEDURE_DATA } from '../../core/catalog/procedures.data.js';
import { WCAG_CRITERIA } from '../../core/catalog/wcag-criteria.data.js';
import { viewportPageKey } from '../../core/matching/fingerprint.js';
import { normalizeUrl, pageKey } from '../../core/url-normalisation.js';
import { axeRules } from '../../scanner/axe.js';
import { sourceText } from '../../core/gate/finding-text.js';
import * as S from './schemas.js';
import { elementsOf, mcpFinding, pageAgain, runScan, ScanMemory, type ScanTarget } from './scans.js';

/** A tool's answer: its structured result, also as JSON text for clients that read text only. */
function result(structured: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
  };
}

/** Every failure is the agent's to read, never a crash of the server. */
async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (e) {
    return { isError: true, content: [{ type: 'text', text: e instanceof Error ? e.message : String(e) }] };
  }
}

class ToolError extends Error {}

function explain(memory: ScanMemory, input: { fingerprint?: string; rule?: string }) {
  const finding = input.fingerprint ? memory.finding(input.fingerprint) : undefined;
  if (input.fingerprint && !finding)
    throw new ToolError(`No finding of this session has the fingerprint ${input.fingerprint}: scan first.`);
  const ruleId = finding?.rule ?? input.rule;
  if (!ruleId) throw new ToolError('Give a fingerprint of a finding, or a rule id.');
  const meta = axeRules().find((r) => r.ruleId === ruleId);
  if (!meta) throw new ToolError(`axe-core has no rule "${ruleId}".`);
  const element = finding
    ? {
        page_url: finding.pageUrl,
        selector: finding.selector,
        html: finding.html,
        location: sourceText(finding),
        message: finding.message,
      }
    : null;
  return explainRule(meta, element);
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
      for (const a of verifyClaims(group, [], { pages: [], violations: [], passes: [] }))
        answers.set(a.fingerprint, a);
      continue;
    }
    const claimed = earlier.findings.filter((f) => group.includes(mcpFinding(f).fingerprint));
    const urls = [...new Set(claimed.map((f) => pageAgain(earlier.target, f.pageUrl)))];
    const run = await runScan({ ...earlier.target, urls }, chromePath, true);
    const pages = run.pages.flatMap((p) =>
      p.ok ? [viewportPageKey(pageKey(normalizeUrl(p.url) ?? p.url), p.viewport)] : [],
    );
    for (const a of verifyClaims(group, earlier.elements, { pages, ...elementsOf(run.pages) }))
      answers.set(a.fingerprint, a);
  }
  return claims.map((c) => answers.get(c)!);
}

function registerResources(server: McpServer): void {
  const json = (uri: URL, value: unknown) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
  });
  server.registerResource(
    'wcag-criteria',
    'a11y-gate://wcag/criteria',
    {
      description: 'The WCAG 2.0-2.2 success criteria: id, title, level, version, W3C link',
      mimeType: 'application/json',
    },
    (uri) => json(uri, WCAG_CRITERIA),
  );
  server.registerResource(
    'test-procedures',
    'a11y-gate://procedures',
    {
      description:
        'How a person tests each WCAG A and AA criterion: what to check, how, with what, what fails',
      mimeType: 'application/json',
    },
    (uri) =>
      json(
        uri,
        PROCEDURE_DATA.map(([criterion, check, how, tools, fails]) => ({
          criterion,
          check,
          how,
          tools,
          fails,
        })),
      ),
  );
}

export interface McpOptions {
  chromePath: string | null;
  version: string;
}

export function createMcpServer(options: McpOptions): McpServer {
  const server = new McpServer({ name: 'a11y-gate', version: options.version });
  const memory = new ScanMemory();
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
        return result({
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
  server.registerTool(
    'explain',
    {
      title: 'Explain a finding',
      description:
        'One finding (by fingerprint, from an earlier scan) or one axe-core rule: the rule in plain words, the element, ' +
        'the steps that fix it, and the WCAG criteria with how a person tests each.',
      inputSchema: S.ExplainInput,
      outputSchema: S.ExplanationOutput,
    },
    (input) => guarded(() => Promise.resolve(result({ ...explain(memory, input) }))),
  );
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
        return result({ claims, done });
      }),
  );
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
