import { nowIso } from '../../domain/ids.js';
import { deriveReport, summarise, type RefusedDecision } from '../../domain/vpat/derive.js';
import { applyAssessment } from '../../domain/vpat/human-evidence.js';
import { publicPath } from '../../domain/vpat/public-path.js';
import { withoutDeveloperLinks } from '../../domain/vpat/remarks.js';
import { criterionVerdict, groupByCriterion, type Verdict } from '../../domain/vpat/assessments/verdict.js';
import type { AssessmentEvidence } from '../assessments/for-report.js';
import type { EditionCatalog } from '../../domain/vpat/editions.js';
import type { OverrideRecord, ReportProduct, VpatReport } from '../../domain/vpat/report.js';
import type { ScanEvidence } from '../../domain/vpat/evidence-tally.js';
import {
  foldGroups,
  foldHelpUrls,
  foldPages,
  startFold,
  type EvidenceFold,
} from '../../domain/vpat/evidence-fold.js';
import type { RuleCoverage } from '../../domain/vpat/rule-coverage.js';
import { readEvidence, type EvidenceScan } from '../../store/vpat/evidence.js';
import { evidenceGroups } from '../../store/vpat/evidence-groups.js';
import type { Knex } from 'knex';
import { axeRuleCoverage } from './axe-rule-coverage.js';
import { nextTurn } from '../../domain/turns.js';

/** Scan warnings that say the scanned pages may not be the real ones (not `html_truncated`, not `no_pages`). */
const SUSPICIONS = new Set(['http_error_pages', 'shared_final_url', 'shared_title']);

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
  assessment?: AssessmentEvidence;
}

/** The report's view of the assessment: which one, its sample by public path, and its testers. */
function assessmentSummary(e: AssessmentEvidence): NonNullable<VpatReport['assessment']> {
  return {
    id: e.assessment.id,
    title: e.assessment.title,
    sample: e.assessment.sample.map((p) => publicPath(p.url)),
    testers: [...new Set(e.results.map((r) => r.tester))].sort(),
  };
}

function verdictsOf(e: AssessmentEvidence): Map<string, Verdict> {
  const sample = e.assessment.sample.map((p) => p.url);
  const out = new Map<string, Verdict>();
  for (const [criterion, results] of groupByCriterion(e.results))
    out.set(criterion, criterionVerdict(sample, results));
  return out;
}

function defaultEvaluationMethods(
  scan: EvidenceScan,
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
    `Automated testing with ${engine} of ${scan.pageCount} page${scan.pageCount === 1 ? '' : 's'} of ${frame.publicUrl ?? scan.url} (${where}); ` +
    `results mapped to WCAG success criteria with the rule tags of axe-core ${axeVersion ?? '(unknown version)'} and to related criteria with W3C's ACT rules. ` +
    humanTesting(frame.assessment) +
    'Automated testing finds only some accessibility failures and never shows that a criterion is met: every criterion answered Supports was ' +
    'answered or confirmed by a named reviewer or tested by a named tester, and criteria answered Not Evaluated still need a person’s review.'
  );
}

function humanTesting(e: AssessmentEvidence | undefined): string {
  if (!e) return '';
  const s = assessmentSummary(e);
  return (
    `People tested a sample of ${s.sample.length} page${s.sample.length === 1 ? '' : 's'} (${s.sample.join(', ')}) ` +
    `following W3C's WCAG-EM in the assessment “${s.title}” (testers: ${s.testers.join(', ') || 'none yet'}). `
  );
}

/** What the scan itself says about how far its evidence can be trusted. */
function evidenceWarnings(scan: EvidenceScan, evidence: ScanEvidence): string[] {
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

/** Pages or groups folded per turn: a large scan's tallies are built between other requests. */
const FOLD_BATCH = 2_000;

/**
 * The scan's evidence folded into the report's tallies: its pages a batch per turn, then its issue
 * groups a page range per turn as the store counts them, so neither the groups nor a long turn is held.
 */
async function foldInTurns(
  db: Knex,
  scan: EvidenceScan,
  now: string,
  coverage: RuleCoverage,
): Promise<{ evidence: ScanEvidence; fold: EvidenceFold }> {
  const { evidence, pages } = await readEvidence(db, scan);
  const fold = startFold();
  for (let i = 0; i < evidence.pages.length; i += FOLD_BATCH) {
    foldPages(fold, evidence.pages.slice(i, i + FOLD_BATCH), evidence.rulesRun);
    await nextTurn();
  }
  const help = new Map<string, string>();
  const knownHelp = new Set(coverage.helpUrls.keys());
  for await (const groups of evidenceGroups(db, scan, pages, now, knownHelp, help)) {
    for (let i = 0; i < groups.length; i += FOLD_BATCH) {
      foldGroups(fold, groups.slice(i, i + FOLD_BATCH), coverage);
      await nextTurn();
    }
  }
  foldHelpUrls(fold, help);
  return { evidence, fold };
}

/** Reads the scan's evidence and derives one draft version of a report. */
export async function assembleReport(
  db: Knex,
  scan: EvidenceScan,
  frame: ReportFrame,
): Promise<{ report: VpatReport; refused: RefusedDecision[] }> {
  const now = nowIso();
  const coverage = await axeRuleCoverage();
  const { evidence, fold } = await foldInTurns(db, scan, now, coverage);
  const warnings = [...evidenceWarnings(scan, evidence), ...frame.warnings];
  const derived = deriveReport({
    catalog: frame.catalog,
    coverage,
    evidence,
    overrides: frame.decisions,
    fold,
  });
  if (!frame.developerLinks) {
    derived.criteria = derived.criteria.map((c) =>
      c.source === 'evidence' ? { ...c, remarks: withoutDeveloperLinks(c.remarks) } : c,
    );
  }
  if (frame.assessment) {
    derived.criteria = applyAssessment(derived.criteria, verdictsOf(frame.assessment));
    derived.summary = summarise(derived.criteria, derived.overrides);
  }
  const { catalog } = frame;
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
      frame.evaluationMethods ?? defaultEvaluationMethods(scan, coverage.engineVersion, frame),
    standards: catalog.standards,
    chapters: catalog.chapters.map((c) => ({
      id: c.id,
      standard: c.standard,
      label: c.label,
      note: c.note ?? null,
    })),
    criteria: derived.criteria,
    overrides: derived.overrides,
    summary: derived.summary,
    violations: derived.violations,
    scan: {
      id: scan.id,
      url: scan.url,
      sha: scan.sha,
      branch: scan.branch,
      engine: { name: scan.engineName, version: scan.engineVersion },
      pages: evidence.pages.length,
      issues: scan.issueCount,
      rules_run: scan.rulesRun,
      created_at: scan.createdAt,
    },
    ...(frame.assessment ? { assessment: assessmentSummary(frame.assessment) } : {}),
    ...(frame.developerLinks ? { developer_links: true } : {}),
    warnings,
    created_by: frame.createdBy,
    created_at: now,
  };
  return { report, refused: derived.refused };
}
