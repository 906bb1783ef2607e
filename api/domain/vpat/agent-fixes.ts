import { publicPath } from '../../../core/url-normalisation.js';
import type { AgentFix, ReportCriterion } from './report.js';
import { listWords } from './remarks.js';
import { rulesTesting, type RuleCoverage } from './rule-coverage.js';

/**
 * The fixes an agent made and a person accepted, on the rows of the rules they fixed (docs/agents.md,
 * "In the report"): the row's evidence rests in part on them, so every format names the agent and the
 * person. Pure.
 */

export function withAgentFixes(
  criteria: ReportCriterion[],
  fixes: readonly AgentFix[],
  coverage: RuleCoverage,
): ReportCriterion[] {
  if (fixes.length === 0) return criteria;
  return criteria.map((c) => {
    const rules = new Set(rulesTesting(coverage, c.id));
    const mine = fixes.filter((f) => rules.has(f.rule));
    return mine.length > 0 ? { ...c, agent_fixes: mine } : c;
  });
}

function oneFix(f: AgentFix): string {
  const who = [f.agent, f.model ? `model ${f.model}` : null].filter(Boolean).join(', ');
  const where = f.page_url ? ` on ${publicPath(f.page_url)}` : '';
  return `${f.rule}${where} (made by ${who}; accepted by ${f.accepted_by}, ${f.accepted_at.slice(0, 10)})`;
}

/** The row's agent fixes in words (no closing full stop), or null: plain text, escaped where it is written. */
export function agentFixesWords(c: Pick<ReportCriterion, 'agent_fixes'>): string | null {
  const fixes = c.agent_fixes ?? [];
  if (fixes.length === 0) return null;
  const lead =
    fixes.length === 1
      ? 'Rests in part on a fix an agent made and a person accepted'
      : 'Rests in part on fixes an agent made and a person accepted';
  return `${lead}: ${listWords(fixes.map(oneFix), 3)}`;
}

/** The row's agent fixes as one sentence, or null (the downloads put it after the remarks). */
export function agentFixesText(c: Pick<ReportCriterion, 'agent_fixes'>): string | null {
  const words = agentFixesWords(c);
  return words === null ? null : `${words}.`;
}
