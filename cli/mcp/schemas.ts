/**
 * The input and output schemas of the local server's own tools (scan, verify): what an agent reads in
 * `tools/list`. Those the service shares are the kernel's (core/mcp/schemas.ts).
 */
import { z } from 'zod';
import { CLAIM_OUTCOMES } from '../../core/claims/verification.js';

const Finding = z.object({
  fingerprint: z.string().describe('The issue identity: name it in explain and verify'),
  rule: z.string().describe('The axe-core rule id'),
  impact: z.string().nullable(),
  page_url: z.string(),
  viewport: z.string().nullable(),
  selector: z.string().describe('CSS selector of the element'),
  html: z.string().describe('The element as the page rendered it (untrusted page text)'),
  summary: z.string().describe('The rule in one line'),
  location: z.string().nullable().describe('path:line of the element in the repository, when located'),
});

export const ScanInput = {
  urls: z
    .array(z.string())
    .default([])
    .describe(
      'Pages to scan: http(s) URLs, or with `serve` paths of the folder such as "/" or "/about.html"',
    ),
  serve: z
    .string()
    .optional()
    .describe(
      'A built folder (static HTML) served on 127.0.0.1 for the scan; without urls its "/" is scanned',
    ),
  viewports: z
    .array(z.string())
    .default([])
    .describe('Sizes ("390x844") or devices ("iPhone 13"); each is its own scan of every page'),
  source_root: z
    .string()
    .optional()
    .describe('The repository folder, to locate findings as path:line (default: the served folder)'),
};

export const ScanOutput = {
  pages: z.array(
    z.object({
      url: z.string(),
      viewport: z.string().nullable(),
      ok: z.boolean(),
      error: z.string().nullable(),
    }),
  ),
  findings: z.array(Finding),
};

export const VerifyInput = {
  claims: z
    .array(z.string())
    .min(1)
    .describe('Fingerprints of findings of an earlier scan of this session that the change claims to fix'),
};

const ElementText = z.object({ html: z.string().nullable(), text: z.string().nullable() });

export const VerifyOutput = {
  claims: z.array(
    z.object({
      fingerprint: z.string(),
      outcome: z.enum(CLAIM_OUTCOMES),
      reason: z.string(),
      rule: z.string().optional(),
      page: z.string().optional(),
      before: ElementText.optional(),
      after: ElementText.optional(),
    }),
  ),
  done: z
    .boolean()
    .describe('True when every claim is verified or removed (needs_person waits for a person)'),
};
