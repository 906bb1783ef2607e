import { z } from 'zod';
import { axeFindings, type Finding } from './findings.js';

/**
 * Findings from result files another scanner wrote (axe-core JSON, or a native scan body's axe pages), for
 * the gate without a service: the service imports such files itself, so here they are read as untrusted
 * JSON, checked for the fields a finding needs. pa11y results and native `issues` are the service's to
 * import (their rules and criteria are mapped there): a page in those forms is refused, naming it.
 */

/** A result page that cannot be judged without a service; the message names the page and why. */
export class ResultFindingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResultFindingsError';
  }
}

const Source = z.object({
  path: z.string().min(1),
  line: z.number().int().positive(),
  column: z.number().int().positive().nullable().default(null),
  method: z.enum(['attribute', 'static']),
});

const Node = z.object({
  target: z.array(z.union([z.string(), z.array(z.string())])).min(1),
  html: z.string().default(''),
  impact: z.string().nullable().optional(),
  failureSummary: z.string().nullable().optional(),
  // A location that does not read as one is dropped: no location rather than a wrong one.
  source: Source.nullable().optional().catch(null),
});

const Rule = z.object({
  id: z.string().min(1),
  impact: z.string().nullable().optional(),
  help: z.string().default(''),
  helpUrl: z.string().default(''),
  description: z.string().default(''),
  tags: z.array(z.string()).default([]),
  nodes: z.array(Node),
});

const AxeResult = z.object({ violations: z.array(Rule), incomplete: z.array(Rule).default([]) });

/** A page of the results as the Action reads it: its address and one of the forms. */
export interface ResultPage {
  url: string;
  axe?: unknown;
  pa11y?: unknown;
  issues?: unknown;
}

function axeOf(page: ResultPage): z.infer<typeof AxeResult> {
  if (page.axe === undefined) {
    const form = page.pa11y !== undefined ? 'pa11y results' : 'native issues';
    throw new ResultFindingsError(
      `${page.url}: ${form} are judged by the service only; without one the gate reads axe-core results`,
    );
  }
  const parsed = AxeResult.safeParse(page.axe);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ResultFindingsError(
      `${page.url}: not an axe-core result ("${issue.path.join('.') || '(the result)'}" ${issue.message})`,
    );
  }
  return parsed.data;
}

/** One finding per element of each page's violations and incomplete rules, as the scanner's own. */
export function resultFindings(pages: readonly ResultPage[]): Finding[] {
  return pages.flatMap((page) => axeFindings(page.url, axeOf(page)));
}
