import type { Knex } from 'knex';
import { nowIso } from '../../domain/ids.js';
import { composeReport, type ReportFrame } from '../../domain/vpat/compose.js';
import type { RefusedDecision } from '../../domain/vpat/derive.js';
import {
  foldGroups,
  foldHelpUrls,
  foldPages,
  startFold,
  type EvidenceFold,
} from '../../domain/vpat/evidence-fold.js';
import type { ScanEvidence } from '../../domain/vpat/evidence-tally.js';
import type { VpatReport } from '../../domain/vpat/report.js';
import type { RuleCoverage } from '../../domain/vpat/rule-coverage.js';
import { nextTurn } from '../../domain/turns.js';
import { readEvidence, type EvidenceScan } from '../../store/vpat/evidence.js';
import { evidenceGroups } from '../../store/vpat/evidence-groups.js';
import { acceptedAgentFixes } from '../../store/gate/claims.js';
import { axeRuleCoverage } from './axe-rule-coverage.js';

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

/** Reads the scan's evidence and composes one draft version of a report from it (and the frame's people). */
export async function assembleReport(
  db: Knex,
  scan: EvidenceScan,
  frame: ReportFrame,
): Promise<{ report: VpatReport; refused: RefusedDecision[] }> {
  const now = nowIso();
  const coverage = await axeRuleCoverage();
  const { evidence, fold } = await foldInTurns(db, scan, now, coverage);
  const agentFixes = await acceptedAgentFixes(db, scan);
  return composeReport({ scan, frame, evidence, fold, coverage, agentFixes, now });
}
