import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import {
  carriedAnswers,
  composeStatement,
  latestReviewOn,
  NO_ANSWERS,
  publishStatement,
  withAnswers,
} from '../../domain/statement/compose.js';
import type { AccessibilityStatement, StatementAnswers } from '../../domain/statement/statement.js';
import type { VpatReport } from '../../domain/vpat/report.js';
import { recordEvent } from '../../outbox/record.js';
import type { CreateStatementInput, UpdateStatementInput } from '../../schemas/statement/requests.js';
import { isUniqueViolation } from '../../store/db.js';
import { getSite } from '../../store/sites/sites.js';
import {
  findStatement,
  insertStatement,
  latestStatement,
  listStatements,
  writeDraft,
  type StatementListRecord,
} from '../../store/statement/statements.js';
import { findReport, listReports } from '../../store/vpat/reports.js';
import { readStatementSources } from './evidence.js';
import { statementEventData } from './views.js';

/** Who is acting: the calling API key (the statement records who made it; its publisher types a name). */
export interface StatementActor {
  keyId: string | null;
  name: string;
}

const answerError = (field: string, detail: string) =>
  domainErrors.invalid([{ pointer: `#/answers/${field}`, detail }]);

/** A chosen review date lies after `today` and no more than a year after it. */
function checkReviewDate(answers: StatementAnswers, today: string): void {
  const on = answers.next_review_on;
  if (on === null) return;
  if (on <= today) throw answerError('next_review_on', 'must be after today');
  if (on > latestReviewOn(today)) throw answerError('next_review_on', 'must be at most a year away');
}

/**
 * Accessibility statements: a draft made from a published report of the site, its answers, its publication
 * as a final version, and the next version starting from the previous one's answers. Each write reads the
 * evidence again, so a draft always shows what the report, its scan and the site's waivers say now.
 */
export class StatementService {
  constructor(private readonly ctx: ApiContext) {}

  async find(org: string, id: string): Promise<AccessibilityStatement> {
    const s = await findStatement(this.ctx.db, org, id);
    if (!s) throw domainErrors.notFound('statement');
    return s;
  }

  list(
    org: string,
    siteId: string,
    limit: number,
    after?: { createdAt: string; id: string },
  ): Promise<StatementListRecord[]> {
    return listStatements(this.ctx.db, org, siteId, limit, after);
  }

  /** A draft of the site's next version, from a final report and the previous version's answers. */
  async create(
    org: string,
    actor: StatementActor,
    input: CreateStatementInput,
  ): Promise<AccessibilityStatement> {
    if (!(await getSite(this.ctx.db, org, input.siteId))) throw domainErrors.notFound('site');
    const report = await this.finalReport(org, input.siteId, input.report_id);
    const previous = await latestStatement(this.ctx.db, org, input.siteId);
    const now = nowIso();
    const answers = withAnswers(previous ? carriedAnswers(previous.answers) : NO_ANSWERS, input.answers);
    checkReviewDate(answers, now.slice(0, 10));
    if (previous?.status === 'draft') {
      throw domainErrors.conflict(
        `Statement ${previous.id} (version ${previous.version}) is still a draft: answer and publish it first.`,
      );
    }
    const s = await this.compose(org, report, answers, now, {
      id: newId('stm'),
      version: (previous?.version ?? 0) + 1,
      previousId: previous?.id ?? null,
      preparedOn: previous?.preparation.prepared_on ?? null,
      createdBy: { key_id: actor.keyId, name: actor.name },
      createdAt: now,
    });
    try {
      await insertStatement(this.ctx.db, org, s);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      throw domainErrors.conflict(
        `Version ${s.version} of the statement of "${s.siteId}" was made meanwhile.`,
      );
    }
    this.ctx.logger.info({ statement_id: s.id, org, site_id: s.siteId }, 'statement draft created');
    return s;
  }

  /** New answers (and optionally another final report) for a draft; the evidence is read again. */
  async update(org: string, id: string, input: UpdateStatementInput): Promise<AccessibilityStatement> {
    const current = await this.draft(org, id);
    const report = input.report_id
      ? await this.finalReport(org, current.siteId, input.report_id)
      : await this.reportOf(org, current);
    const now = nowIso();
    const answers = withAnswers(current.answers, input.answers);
    checkReviewDate(answers, now.slice(0, 10));
    const s = await this.compose(org, report, answers, now, this.frameOf(current));
    if (!(await writeDraft(this.ctx.db, org, s))) throw this.notDraft(current);
    return s;
  }

  /** The final version: every answer given, the publisher's typed name and the dates recorded. */
  async publish(org: string, id: string, publisher: string): Promise<AccessibilityStatement> {
    const current = await this.draft(org, id);
    const now = nowIso();
    const fresh = await this.compose(
      org,
      await this.reportOf(org, current),
      current.answers,
      now,
      this.frameOf(current),
    );
    if (fresh.missing.length > 0) {
      throw domainErrors.invalid(
        fresh.missing.map((m) => ({ pointer: `#/answers/${m.field}`, detail: m.question })),
        `The statement cannot be published: ${fresh.missing.length} ${fresh.missing.length === 1 ? 'answer is' : 'answers are'} missing.`,
      );
    }
    checkReviewDate(fresh.answers, now.slice(0, 10));
    const final = publishStatement(fresh, publisher, now);
    await this.ctx.db.transaction(async (trx) => {
      if (!(await writeDraft(trx, org, final))) throw this.notDraft(current);
      await recordEvent(
        trx,
        org,
        { type: 'statement.published', data: statementEventData(final) },
        { publicUrl: this.ctx.config.publicUrl },
      );
    });
    this.ctx.logger.info({ statement_id: final.id, org, site_id: final.siteId }, 'statement published');
    return final;
  }

  private async draft(org: string, id: string): Promise<AccessibilityStatement> {
    const s = await this.find(org, id);
    if (s.status === 'final') throw this.notDraft(s);
    return s;
  }

  private notDraft(s: AccessibilityStatement) {
    return domainErrors.conflict(
      `Statement ${s.id} is final: it never changes. Make the next version (POST /api/v1/statements) to change it.`,
    );
  }

  private frameOf(s: AccessibilityStatement) {
    return {
      id: s.id,
      version: s.version,
      previousId: s.previous_id,
      preparedOn: s.preparation.prepared_on,
      createdBy: s.created_by,
      createdAt: s.created_at,
    };
  }

  private async compose(
    org: string,
    report: VpatReport,
    answers: StatementAnswers,
    now: string,
    frame: ReturnType<StatementService['frameOf']>,
  ): Promise<AccessibilityStatement> {
    const sources = await readStatementSources(this.ctx, org, report, now);
    return composeStatement({
      frame: { ...frame, siteId: report.siteId, answers, now },
      report,
      ...sources,
    });
  }

  private async reportOf(org: string, s: AccessibilityStatement): Promise<VpatReport> {
    const report = await findReport(this.ctx.db, org, s.preparation.evidence.report.id);
    if (!report) throw domainErrors.conflict(`Report ${s.preparation.evidence.report.id} is gone.`);
    return report;
  }

  /** The final report named (of this site), or the site's newest final report. */
  private async finalReport(org: string, siteId: string, id: string | undefined): Promise<VpatReport> {
    const pointer = '#/report_id';
    if (id) {
      const report = await findReport(this.ctx.db, org, id);
      if (!report) throw domainErrors.notFound('report');
      if (report.siteId !== siteId) {
        throw domainErrors.invalid([
          { pointer, detail: `report ${id} is of site "${report.siteId}", not "${siteId}"` },
        ]);
      }
      if (report.status !== 'final') {
        throw domainErrors.invalid([
          { pointer, detail: `report ${id} is a draft: a statement is made from a published (final) report` },
        ]);
      }
      return report;
    }
    let after: { createdAt: string; id: string } | undefined;
    for (;;) {
      const page = await listReports(this.ctx.db, org, siteId, 100, after);
      const final = page.find((r) => r.status === 'final');
      if (final) return (await findReport(this.ctx.db, org, final.id))!;
      if (page.length < 100) break;
      after = { createdAt: page[page.length - 1].createdAt, id: page[page.length - 1].id };
    }
    throw domainErrors.invalid([
      { pointer, detail: `site "${siteId}" has no published report: publish one, or name one in report_id` },
    ]);
  }
}
