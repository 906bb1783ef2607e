import type { ApiContext } from '../../context.js';
import { domainErrors, type FieldError } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import { isUndecided, type RefusedDecision } from '../../domain/vpat/derive.js';
import { diffReports, type VpatDiff } from '../../domain/vpat/diff.js';
import { catalogRowIds, editionCatalog } from '../../domain/vpat/editions.js';
import { carriedOverride, type OverrideRecord, type VpatReport } from '../../domain/vpat/report.js';
import { behindSummary } from '../../domain/vpat/status.js';
import {
  baseBranch,
  findEvidenceScan,
  latestEvidenceScan,
  type EvidenceScan,
} from '../../store/vpat/evidence.js';
import { missingResults, newerEvidence } from './behind.js';
import { findReport } from '../../store/vpat/reports.js';
import { assessmentForReport } from '../assessments/for-report.js';
import { assembleReport } from './assemble.js';
import { saveReport, type ReportAuthor } from './reports.js';
import type { ReviewDecision } from '../../schemas/vpat/review.js';

export interface ReviewInput {
  author: string;
  decisions: ReviewDecision[];
}

export interface PublishInput {
  publisher: string;
  publish_behind?: boolean;
}

/** Confirmations the new evidence no longer allows stay recorded as warnings of the version. */
function noteRefused(report: VpatReport, refused: readonly RefusedDecision[]): void {
  for (const r of refused) {
    report.warnings.push(
      `The confirmation of ${r.decision.criterion} by ${r.decision.author} no longer applies: ${r.reason}.`,
    );
  }
}

/** Each decision names a row of the report once, with either a level or a confirmation. */
function decisionErrors(decisions: readonly ReviewDecision[], rowIds: ReadonlySet<string>): FieldError[] {
  const seen = new Set<string>();
  return decisions.flatMap((d, i) => {
    const errors: FieldError[] = [];
    if (!rowIds.has(d.criterion)) {
      errors.push({
        pointer: `#/decisions/${i}/criterion`,
        detail: `"${d.criterion}" is not a row of this report`,
      });
    } else if (seen.has(d.criterion)) {
      errors.push({ pointer: `#/decisions/${i}/criterion`, detail: 'criterion is decided twice' });
    }
    seen.add(d.criterion);
    if ((d.conformance === undefined) === (d.confirm === undefined)) {
      errors.push({
        pointer: `#/decisions/${i}/conformance`,
        detail: 'give either conformance or confirm: true',
      });
    }
    return errors;
  });
}

/** Warnings a version carries from the one before (the others are recomputed from the scan). */
const CARRIED_WARNINGS = /^The (override|confirmation) of /;

/**
 * People's part of a report: reviews (each a new immutable version carrying every earlier decision forward),
 * publication of a version with nothing left undecided, and comparison of two versions or reports.
 */
export class VpatReviewService {
  constructor(private readonly ctx: ApiContext) {}

  private async report(org: string, id: string, what = 'report'): Promise<VpatReport> {
    const report = await findReport(this.ctx.db, org, id);
    if (!report) throw domainErrors.notFound(what);
    return report;
  }

  async review(org: string, actor: ReportAuthor, id: string, input: ReviewInput): Promise<VpatReport> {
    const previous = await this.report(org, id);
    if (previous.status === 'final') {
      throw domainErrors.conflict(
        `Report ${previous.id} is final. Generate a new report with inherit_overrides_from to change it.`,
      );
    }
    const catalog = editionCatalog(previous.edition, previous.wcag_version, previous.level);
    const rowIds = catalogRowIds(catalog);
    const invalid = decisionErrors(input.decisions, rowIds);
    if (invalid.length > 0) throw domainErrors.invalid(invalid);
    const scan = await findEvidenceScan(this.ctx.db, org, previous.scan_id);
    if (!scan) throw domainErrors.notFound(`scan ${previous.scan_id} of this report`);

    const now = nowIso();
    const fresh: OverrideRecord[] = input.decisions.map((d) => ({
      criterion: d.criterion,
      kind: d.confirm ? 'confirm' : 'level',
      conformance: d.confirm ? 'supports' : d.conformance!,
      remarks: d.remarks,
      author: input.author,
      author_key_id: actor.keyId,
      created_at: now,
      inherited_from: null,
    }));
    const { report, refused } = await this.nextVersion(org, actor, previous, scan, fresh);
    const refusedErrors = refused.flatMap((r) => {
      const i = fresh.indexOf(r.decision);
      return i < 0
        ? []
        : [{ pointer: `#/decisions/${i}/confirm`, detail: `${r.decision.criterion}: ${r.reason}` }];
    });
    if (refusedErrors.length > 0) throw domainErrors.invalid(refusedErrors);
    noteRefused(report, refused);
    await saveReport(this.ctx, org, report, 'vpat.reviewed');
    return report;
  }

  /**
   * The next version of a draft from the newest evidence: the latest scan of the site's base branch (when
   * newer than the version's) and its assessment's results as they are now, every decision carried forward.
   */
  async refresh(org: string, actor: ReportAuthor, id: string): Promise<VpatReport> {
    const previous = await this.report(org, id);
    if (previous.status === 'final') {
      throw domainErrors.conflict(
        `Report ${previous.id} is final. Generate a new report with inherit_overrides_from to follow newer evidence.`,
      );
    }
    const branch = await baseBranch(this.ctx.db, org, previous.siteId);
    const latest = await latestEvidenceScan(this.ctx.db, org, previous.siteId, branch);
    const scan =
      latest && latest.createdAt > previous.scan.created_at
        ? latest
        : await findEvidenceScan(this.ctx.db, org, previous.scan_id);
    if (!scan) throw domainErrors.notFound(`scan ${previous.scan_id} of this report`);
    const { report, refused } = await this.nextVersion(org, actor, previous, scan, []);
    noteRefused(report, refused);
    await saveReport(this.ctx, org, report, 'vpat.refreshed');
    return report;
  }

  /**
   * A draft version after `previous`: its scan's evidence, the assessment read again (results recorded
   * since count), `fresh` decisions and every earlier one not decided again, with its author and time.
   */
  private async nextVersion(
    org: string,
    actor: ReportAuthor,
    previous: VpatReport,
    scan: EvidenceScan,
    fresh: OverrideRecord[],
  ) {
    const answered = new Set(fresh.map((d) => d.criterion));
    const carried: OverrideRecord[] = previous.overrides
      .filter((o) => !answered.has(o.criterion))
      .map((o) => carriedOverride(o, o.inherited_from));
    // The report's assessment, else (when it had none) the site's newest: a deleted one is left out.
    const assessment = await assessmentForReport(
      this.ctx,
      org,
      previous.siteId,
      previous.assessment?.id,
    ).catch(() => undefined);
    return assembleReport(this.ctx.db, scan, {
      assessment,
      developerLinks: previous.developer_links ?? false,
      publicUrl: previous.product.url ?? null,
      id: newId('vpt'),
      version: previous.version + 1,
      previousId: previous.id,
      catalog: editionCatalog(previous.edition, previous.wcag_version, previous.level),
      edition: previous.edition,
      wcagVersion: previous.wcag_version,
      level: previous.level,
      product: previous.product,
      // The default sentence names the scan and the testers: it is written again for this version's
      // evidence; a sentence someone wrote at generation stays.
      evaluationMethods: previous.evaluation_methods.includes(`(scan ${previous.scan_id}`)
        ? null
        : previous.evaluation_methods,
      decisions: [...fresh, ...carried],
      warnings: previous.warnings.filter((w) => CARRIED_WARNINGS.test(w)),
      createdBy: { key_id: actor.keyId, name: actor.name },
    });
  }

  /** The final version of a report whose every row has a person's decision (or a failure). */
  async publish(org: string, actor: ReportAuthor, id: string, input: PublishInput): Promise<VpatReport> {
    const previous = await this.report(org, id);
    if (previous.status === 'final') throw domainErrors.conflict(`Report ${previous.id} is already final.`);
    const newer = await newerEvidence(this.ctx, org, previous);
    // Results people recorded after this version was made would not reach the customer: publishing
    // without them is a choice someone makes knowingly, and the report says so.
    if (newer.results.length > 0 && !input.publish_behind) {
      throw domainErrors.conflict(
        `The report is behind its assessment: ${behindSummary(newer.state)} since this version was made. ` +
          'Make the next version from them (POST /api/v1/vpat/{id}/refresh), or publish as it is with "publish_behind": true.',
        { behind: newer.state },
        missingResults(newer.results),
      );
    }
    const undecided: FieldError[] = previous.criteria.flatMap((c, i) =>
      isUndecided(c)
        ? [
            {
              pointer: `#/criteria/${i}`,
              detail: `${c.id} ${c.title}: ${c.conformance} (${c.basis}) still needs a person's decision`,
            },
          ]
        : [],
    );
    // A customer reads what was evaluated in the description: a report without one is not fit to sign.
    if (!previous.product.description?.trim()) {
      undecided.push({
        pointer: '#/product/description',
        detail:
          'the product has no description: generate the next report from this one with product.description (its decisions carry over)',
      });
    }
    if (undecided.length > 0) {
      throw domainErrors.invalid(
        undecided,
        undecided.some((e) => e.pointer === '#/product/description')
          ? 'The report cannot be published: the product has no description, and every row needs a decision.'
          : `${undecided.length} ${undecided.length === 1 ? 'row is' : 'rows are'} undecided: review them before publishing.`,
      );
    }
    const now = nowIso();
    // Recorded when newer results were left out knowingly; newer scans alone publish as usual.
    const behind =
      newer.state.results > 0 ? { results: newer.state.results, scans: newer.state.scans } : undefined;
    const report: VpatReport = {
      ...previous,
      id: newId('vpt'),
      status: 'final',
      version: previous.version + 1,
      previous_id: previous.id,
      published: { by: input.publisher, at: now, ...(behind ? { behind } : {}) },
      created_by: { key_id: actor.keyId, name: actor.name },
      created_at: now,
    };
    await saveReport(this.ctx, org, report, 'vpat.published');
    return report;
  }

  /** What changed from `againstId` (default: the version `id` was made from) to `id`, both of the caller's org. */
  async diff(org: string, id: string, againstId?: string): Promise<VpatDiff> {
    const to = await this.report(org, id);
    const fromId = againstId ?? to.previous_id;
    const from = fromId ? await this.report(org, fromId, 'report to compare against') : to;
    return diffReports(from, to);
  }
}
