import type { AccessibilityStatement } from '../../domain/statement/statement.js';
import type { StatementListItem } from '../../schemas/statement/requests.js';
import type { StatementListRecord } from '../../store/statement/statements.js';

/** The `data` of a statement event: the version, its status and its review dates. */
export function statementEventData(s: AccessibilityStatement) {
  return {
    id: s.id,
    siteId: s.siteId,
    version: s.version,
    status: s.status,
    compliance: s.compliance.status,
    published: s.published,
    last_reviewed_on: s.preparation.last_reviewed_on,
    next_review_on: s.preparation.next_review_on,
  };
}

export function presentStatementListItem(r: StatementListRecord): StatementListItem {
  return {
    id: r.id,
    siteId: r.siteId,
    version: r.version,
    previous_id: r.previousId,
    status: r.status,
    report_id: r.reportId,
    compliance: r.compliance,
    missing: r.missing,
    published: r.published,
    next_review_on: r.nextReviewOn,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}
