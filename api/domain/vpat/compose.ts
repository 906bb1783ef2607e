import { deriveReport, type RefusedDecision } from './derive.js';
import type { EditionCatalog } from './editions.js';
import type { EvidenceFold } from './evidence-fold.js';
import { addressCount, type ScanEvidence } from './evidence-tally.js';
import { assessmentSummary, type HumanEvidence } from './human-evidence.js';
import { withAgentFixes } from './agent-fixes.js';
import type { AgentFix, OverrideRecord, ReportProduct, VpatReport } from './report.js';
import type { RuleCoverage } from './rule-coverage.js';

/**
 * One version of a report, composed from the scan's automated evidence and people's results together:
 * derived and summarised once. Pure; the service reads the evidence and stores what this returns.
 */

/** Scan warnings that say the scanned pages may not be the real ones (not `html_truncated`, not `no_pages`). */
const SUSPICIONS = new Set(['http_error_pages', 'shared_final_url', 'shared_title']);

/** What a report states about the scan it was made from. */
export interface ReportSource {
  id: string;
  siteId: string;
  url: string;
  sha: string | null;
  branch: string | null;
  engineName: string | null;
  engineVersion: string | null;
  issueCount: number;
  /** null = the scan did not say which rules ran. */
  rulesRun: string[] | null;
  /** The scan's own suspicions (login-page trap, HTTP errors, …), as stored at ingest. */
  warnings: Array<{ code: string; message: string }>;
  createdAt: string;
}

/** Everything a report version is made of besides the scan's evidence. */
export interface ReportFrame {
  id: string;
  version: number;
  previousId: string | null;
  catalog: EditionCatalog;
  edition: VpatReport['edition'];
  wcagVersion: VpatReport['wcag_version'];
  level: VpatReport['level'];
  product: ReportProduct;
  /** Null: the default sentence describing the scan. */
  evaluationMethods: string | null;
  decisions: OverrideRecord[];
  warnings: string[];
  createdBy: VpatReport['created_by'];
  /** The product's public address (the site's `url`); null: the scanned address. */
  publicUrl?: string | null;
  /** Keep the developers' "How to fix" links in the remarks (customers' reports leave them out). */
  developerLinks: boolean;
  /** People's results on a page sample (an assessment), laid over the automated evidence. */
  assessment?: HumanEvidence;
}

function defaultEvaluationMethods(
  scan: ReportSource,
  pages: number,
  axeVersion: string | null,
  frame: Pick<ReportFrame, 'publicUrl' | 'assessment'>,
): string {
  const engine = scan.engineName
    ? `${scan.engineName}${scan.engineVersion ? ` ${scan.engineVersion}` : ''}`
    : 'an automated engine';
  const where = [
    `scan ${scan.id}`,
    scan.sha ? `commit ${scan.sha.slice(0, 12)}` : null,
    scan.branch ? `branch ${scan.branch}` : null,
    scan.createdAt.slice(0, 10),
  ]
    .filter(Boolean)
    .join(', ');
  return (
    // The product's public address (the site's), not the host a CI job scanned.
    `Automated testing with ${engine} of ${pages} page${pages === 1 ? '' : 's'} of ${frame.publicUrl ?? scan.url} (${where}); ` +
    `results mapped to WCAG success criteria with the rule tags of axe-core ${axeVersion ?? '(unknown version)'} and to related criteria with W3C's ACT rules. ` +
    humanTesting(frame.assessment) +
    'Automated testing finds only some accessibility failures and never shows that a criterion is met: every criterion answered Supports was ' +
    'answered or confirmed by a named reviewer or tested by a named tester, and criteria answered Not Evaluated still need a person’s review.'
  );
}

function humanTesting(e: HumanEvidence | undefined): string {
  if (!e) return '';
  const s = assessmentSummary(e);
  return (
    `People tested a sample of ${s.sample.length} page${s.sample.length === 1 ? '' : 's'} (${s.sample.join(', ')}) ` +
    `following W3C's WCAG-EM in the assessment “${s.title}” (testers: ${s.testers.join(', ') || 'none yet'}). `
  );
}

/** What the scan itself says about how far its evidence can be trusted (and marks the evidence suspect). */
function evidenceWarnings(scan: ReportSource, evidence: ScanEvidence): string[] {
  const warnings: string[] = [];
  const unlisted = evidence.pages.filter((p) => p.rulesRun === null).length;
  const noList =
    'The scan did not list the rules that ran (rules_run): a rule counts as run only where it reported a result, so criteria without results stay Not Evaluated.';
  if (unlisted > 0 && unlisted === evidence.pages.length) {
    warnings.push(noList);
  } else if (unlisted > 0) {
    warnings.push(
      `${unlisted} of the ${evidence.pages.length} pages did not list the rules that ran on them (native pages without rules_run): ` +
        'a rule counts as run on those pages only where it reported a result, so criteria without results on them stay Not Evaluated.',
    );
  } else if (evidence.pages.length === 0 && scan.rulesRun === null) {
    warnings.push(noList);
  }
  if (evidence.pages.length === 0) warnings.push('The scan has no pages: every criterion is Not Evaluated.');
  // The scan's own doubts about what it tested are doubts about every answer drawn from it.
  const doubts = scan.warnings.filter((w) => SUSPICIONS.has(w.code));
  for (const w of doubts) warnings.push(`The scan was flagged: ${w.message}`);
  evidence.suspect = doubts.length > 0;
  return warnings;
}

/** The evidence as read and folded by the service, and the moment the version is made. */
export interface ComposeInput {
  scan: ReportSource;
  frame: ReportFrame;
  evidence: ScanEvidence;
  fold: EvidenceFold;
  coverage: RuleCoverage;
  /** Fixes an agent made and a person accepted whose issues the scan no longer holds. */
  agentFixes?: readonly AgentFix[];
  now: string;
}

/** A draft version of a report, and the decisions on it that could not stand. */
export function composeReport(input: ComposeInput): { report: VpatReport; refused: RefusedDecision[] } {
  const { scan, frame, evidence, coverage } = input;
  const warnings = [...evidenceWarnings(scan, evidence), ...frame.warnings];
  const derived = deriveReport({
    catalog: frame.catalog,
    coverage,
    evidence,
    overrides: frame.decisions,
    fold: input.fold,
    developerLinks: frame.developerLinks,
    human: frame.assessment,
  });
  const { catalog } = frame;
  // Pages as people count them: a URL scanned at two viewports is one page tested.
  const pages = addressCount(evidence.pages);
  const report: VpatReport = {
    id: frame.id,
    siteId: scan.siteId,
    scan_id: scan.id,
    status: 'draft',
    version: frame.version,
    previous_id: frame.previousId,
    published: null,
    title: catalog.title,
    product: frame.product,
    edition: frame.edition,
    wcag_version: frame.wcagVersion,
    level: frame.level,
    catalog: catalog.catalogName,
    evaluation_methods:
      frame.evaluationMethods ?? defaultEvaluationMethods(scan, pages, coverage.engineVersion, frame),
    standards: catalog.standards,
    chapters: catalog.chapters.map((c) => ({
      id: c.id,
      standard: c.standard,
      label: c.label,
      note: c.note ?? null,
    })),
    criteria: withAgentFixes(derived.criteria, input.agentFixes ?? [], coverage),
    overrides: derived.overrides,
    summary: derived.summary,
    violations: derived.violations,
    scan: {
      id: scan.id,
      url: scan.url,
      sha: scan.sha,
      branch: scan.branch,
      engine: { name: scan.engineName, version: scan.engineVersion },
      pages,
      issues: scan.issueCount,
      rules_run: scan.rulesRun,
      created_at: scan.createdAt,
    },
    ...(frame.assessment ? { assessment: assessmentSummary(frame.assessment) } : {}),
    ...(frame.developerLinks ? { developer_links: true } : {}),
    warnings,
    created_by: frame.createdBy,
    created_at: input.now,
  };
  return { report, refused: derived.refused };
}
