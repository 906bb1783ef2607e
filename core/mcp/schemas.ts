/**
 * The input and output schemas of the tools the local server (`a11y-gate mcp`) and the service (`/mcp`)
 * share: what an agent reads in `tools/list`, the same on both transports. zod, because the MCP SDK reads
 * zod shapes; these describe the tools, not the REST API, whose schemas stay in api/schemas.
 */
import { z } from 'zod';
import { IMPACTS } from '../impact.js';

const Sha = z
  .string()
  .regex(/^[0-9a-fA-F]{7,64}$/, 'must be a hex commit sha')
  .describe('A commit sha (7 to 64 hex digits)');

export const ExplainInput = {
  fingerprint: z
    .string()
    .optional()
    .describe(
      'A finding to explain: of an earlier scan of this session, or with deploy_id a new issue of that deploy event',
    ),
  deploy_id: z
    .string()
    .optional()
    .describe('The deploy event (from gate) whose new issue the fingerprint names'),
  rule: z.string().optional().describe('An axe-core rule id, when no finding is at hand'),
};

const Procedure = z.object({ check: z.string(), how: z.string(), tools: z.string(), fails: z.string() });

export const ExplanationOutput = {
  rule: z.string(),
  summary: z.string(),
  description: z.string(),
  help_url: z.string(),
  criteria: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      level: z.enum(['A', 'AA', 'AAA']).nullable(),
      url: z.string().nullable(),
      procedure: Procedure.nullable(),
    }),
  ),
  fix: z.object({ heading: z.string(), steps: z.array(z.string()) }),
  needs_person_review: z
    .boolean()
    .describe('The rule checks a text only a person can judge: a fix of it is shown to a person'),
  element: z
    .object({
      page_url: z.string(),
      selector: z.string(),
      html: z.string(),
      location: z.string().nullable(),
      message: z.string(),
    })
    .nullable(),
};

export const GateInput = {
  siteId: z.string().min(1).describe('The site, as its scans name it'),
  sha: Sha.describe('The commit to judge: its latest scan is compared with the baseline'),
  baseline_sha: Sha.optional().describe(
    "Compare with the latest scan of this commit instead of the site's base branch",
  ),
  ref: z.string().min(1).max(255).optional().describe('The git ref being deployed (recorded with the event)'),
};

const Counts = z.object({ new: z.number(), existing: z.number(), fixed: z.number(), waived: z.number() });

export const GateOutput = {
  deploy_id: z.string().describe('The deploy event: deploy_issues and explain take it'),
  siteId: z.string(),
  sha: z.string(),
  passed: z.boolean(),
  reasons: z
    .array(z.object({ code: z.string(), message: z.string() }))
    .describe('Why the gate failed (empty when it passed), or why there was nothing to compare'),
  counts: Counts.describe('Issues of the head scan: new, existing (in the baseline too), fixed, waived'),
  new_by_impact: z.object({
    critical: z.number(),
    serious: z.number(),
    moderate: z.number(),
    minor: z.number(),
  }),
  baseline: z.object({ sha: z.string().nullable(), reason: z.string() }).nullable(),
  details_url: z.string().nullable().describe('Where a person reads the decision'),
};

export const DeployIssuesInput = {
  deploy_id: z.string().min(1).describe('A deploy event, from gate'),
};

const DeployIssue = z.object({
  fingerprint: z.string().describe('The issue identity: claim it as fixed, explain it'),
  rule: z.string(),
  impact: z.enum(IMPACTS).nullable(),
  kind: z.enum(['violation', 'incomplete']),
  page_url: z.string(),
  selector: z.string().nullable(),
  html: z.string().nullable().describe('The element as the page rendered it (untrusted page text)'),
  message: z.string().nullable(),
  location: z.string().nullable().describe('path:line of the element in the repository, when located'),
  wcag: z.array(z.string()),
  help_url: z.string().nullable(),
});

export const DeployIssuesOutput = {
  deploy_id: z.string(),
  siteId: z.string(),
  sha: z.string(),
  passed: z.boolean(),
  new_issues: z.array(DeployIssue),
  new_issues_total: z
    .number()
    .describe('How many new issues the gate counted; more than listed when the event keeps only the first'),
};
