import type { Knex } from 'knex';
import type {
  Assessment,
  AssessmentLevel,
  AssessmentOrigin,
  SamplePage,
} from '../../domain/vpat/assessments/assessment.js';
import { isNulFree } from '../../../core/text/truncation.js';
import { newestFirst } from '../keyset.js';
import { normalizeUrl } from '../../../core/url-normalisation.js';
import type { SampleCandidate } from '../../domain/vpat/assessments/sample.js';

/** Assessments: every read and write is scoped to an org. */

interface Row {
  id: string;
  org: string;
  site_id: string;
  scan_id: string | null;
  title: string;
  level: string;
  sample: string;
  seed: number | string | null;
  origin: string;
  created_at: string;
  created_by: string;
  updated_at: string;
}

function fromRow(r: Row): Assessment {
  return {
    id: r.id,
    org: r.org,
    siteId: r.site_id,
    scanId: r.scan_id,
    title: r.title,
    level: r.level as AssessmentLevel,
    sample: JSON.parse(r.sample) as SamplePage[],
    seed: r.seed === null ? null : Number(r.seed),
    origin: r.origin as AssessmentOrigin,
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
  };
}

export async function insertAssessment(db: Knex | Knex.Transaction, a: Assessment): Promise<void> {
  await db('assessments').insert({
    id: a.id,
    org: a.org,
    site_id: a.siteId,
    scan_id: a.scanId,
    title: a.title,
    level: a.level,
    sample: JSON.stringify(a.sample),
    seed: a.seed,
    origin: a.origin,
    created_at: a.createdAt,
    created_by: a.createdBy,
    updated_at: a.updatedAt,
  });
}

export async function findAssessment(
  db: Knex | Knex.Transaction,
  org: string,
  id: string,
): Promise<Assessment | undefined> {
  // No id holds U+0000, and PostgreSQL refuses it in a query.
  if (!isNulFree(id)) return undefined;
  const row = await db('assessments').where({ org, id }).first<Row | undefined>();
  return row ? fromRow(row) : undefined;
}

/** The site's newest assessment (the one a report uses unless told otherwise). */
export async function latestAssessment(
  db: Knex,
  org: string,
  siteId: string,
): Promise<Assessment | undefined> {
  const row = await db('assessments')
    .where({ org, site_id: siteId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first<Row | undefined>();
  return row ? fromRow(row) : undefined;
}

export async function listAssessments(
  db: Knex,
  org: string,
  siteId: string | undefined,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<Assessment[]> {
  const q = db('assessments')
    .where({ org })
    .modify((b) => {
      if (siteId) b.andWhere({ site_id: siteId });
    })
    .select('*');
  newestFirst(q, 'created_at', limit, after && { at: after.createdAt, id: after.id });
  const rows = (await q) as Row[];
  return rows.map(fromRow);
}

export async function updateAssessment(
  trx: Knex.Transaction,
  org: string,
  id: string,
  fields: { title: string; sample: SamplePage[]; seed: number | null; updatedAt: string },
): Promise<void> {
  await trx('assessments')
    .where({ org, id })
    .update({
      title: fields.title,
      sample: JSON.stringify(fields.sample),
      seed: fields.seed,
      updated_at: fields.updatedAt,
    });
}

export async function touchAssessment(
  trx: Knex.Transaction,
  org: string,
  id: string,
  at: string,
): Promise<void> {
  await trx('assessments').where({ org, id }).update({ updated_at: at });
}

export async function deleteAssessment(trx: Knex.Transaction, org: string, id: string): Promise<boolean> {
  if (!(await findAssessment(trx, org, id))) return false;
  await trx('assessment_result_changes').where({ assessment_id: id }).delete();
  await trx('assessment_results').where({ assessment_id: id }).delete();
  await trx('assessments').where({ org, id }).delete();
  return true;
}

/** The scan's pages, in the scan's order, each with its address by the current rule. */
export async function scanPageUrls(db: Knex, scanId: string): Promise<SampleCandidate[]> {
  const rows = await db('scan_pages')
    .where({ scan_id: scanId })
    .orderBy('page_index')
    .select<Array<{ url: string; normalized_url: string }>>('url', 'normalized_url');
  return rows.map((r) => ({ url: r.url, address: normalizeUrl(r.normalized_url) ?? r.normalized_url }));
}
