import type { ApiContext } from '../../context.js';
import { domainErrors, type FieldError } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import { isHttpUrl } from '../../../core/url-normalisation.js';
import { catalogRowIds, editionCatalog } from '../../domain/vpat/editions.js';
import {
  carriedOverride,
  type OverrideRecord,
  type ProductContact,
  type ReportProduct,
  type VpatReport,
} from '../../domain/vpat/report.js';
import { recordEvent } from '../../outbox/record.js';
import type { EventType } from '../../schemas/webhook-events.js';
import {
  ProductContactSchema as ProductContactSchema,
  type GenerateVpatBody,
} from '../../schemas/vpat/reports.js';
import type { z } from '../../schemas/zod.js';
import {
  baseBranch,
  findEvidenceScan,
  latestEvidenceScan,
  type EvidenceScan,
} from '../../store/vpat/evidence.js';
import { holdScans } from '../../store/scans/holds.js';
import { getSite } from '../../store/sites/sites.js';
import {
  findReport,
  insertReport,
  listReports,
  successorOf,
  type VpatListRecord,
} from '../../store/vpat/reports.js';
import { assessmentForReport } from '../assessments/for-report.js';
import { assembleReport } from './assemble.js';
import { newerEvidence } from './behind.js';
import { checkCount } from '../../domain/access/limits.js';

export type GenerateVpatInput = z.output<typeof GenerateVpatBody>;

/** Who is acting: the calling API key or console session (recorded as `created_by`, never as a decision's author). */
export interface ReportAuthor {
  keyId: string | null;
  name: string;
}

function normaliseContact(contact: GenerateVpatInput['product']['contact']): ProductContact | undefined {
  if (contact === undefined) return undefined;
  if (typeof contact !== 'string') return contact;
  // The same e-mail rule as the object form, so the stored contact always matches the published schema.
  return ProductContactSchema.shape.email.safeParse(contact).success ? { email: contact } : { name: contact };
}

/** The product as asked for; its public address defaults to the site's (when the site has a web address). */
function product(input: GenerateVpatInput['product'], siteUrl: string | null): ReportProduct {
  const p: ReportProduct = { name: input.name, version: input.version };
  if (input.vendor) p.vendor = input.vendor;
  if (input.description) p.description = input.description;
  const url = input.url ?? (siteUrl && isHttpUrl(siteUrl) ? siteUrl : undefined);
  if (url) p.url = url;
  const contact = normaliseContact(input.contact);
  if (contact) p.contact = contact;
  return p;
}

/** Stores a report version and its outbox event in one transaction: both exist, or neither. */
export async function saveReport(
  ctx: ApiContext,
  org: string,
  report: VpatReport,
  type: `vpat.${string}` & EventType,
): Promise<void> {
  // Every review stores a whole version: the chain of one report is capped, not the reviews' pace.
  const maxVersions = ctx.config.limits.versionsPerReport;
  checkCount(
    'versions_per_report',
    maxVersions,
    report.version - 1,
    `the report has ${report.version - 1} versions`,
  );
  await ctx.db.transaction(async (trx) => {
    const newer = report.previous_id ? await successorOf(trx, org, report.previous_id) : undefined;
    if (newer) {
      throw domainErrors.conflict(
        `Report ${report.previous_id} already has a newer version (${newer}): review or publish that one.`,
      );
    }
    // Its evidence must still be there when it is stored (retention or a deletion may have removed the
    // scan since it was read): a report never points at a scan that is gone.
    if (!(await holdScans(trx, [report.scan_id]))) {
      throw domainErrors.conflict(
        `Scan ${report.scan_id} was deleted while the report was being made from it: generate the report again.`,
      );
    }
    await insertReport(trx, org, report);
    await recordEvent(
      trx,
      org,
      {
        type,
        data: {
          id: report.id,
          siteId: report.siteId,
          scan_id: report.scan_id,
          status: report.status,
          version: report.version,
          previous_id: report.previous_id,
          edition: report.edition,
          wcag_version: report.wcag_version,
          level: report.level,
          summary: report.summary,
          created_at: report.created_at,
        },
      },
      { publicUrl: ctx.config.publicUrl },
    );
  });
}

export class VpatReportService {
  constructor(private readonly ctx: ApiContext) {}

  async find(org: string, id: string): Promise<VpatReport> {
    const report = await findReport(this.ctx.db, org, id);
    if (!report) throw domainErrors.notFound('report');
    return report;
  }

  /** The report with the newer evidence there is now (`behind`), as `GET /api/v1/vpat/:id` answers it. */
  async withBehind(org: string, report: VpatReport): Promise<VpatReport> {
    return { ...report, behind: (await newerEvidence(this.ctx, org, report)).state };
  }

  list(
    org: string,
    siteId: string,
    limit: number,
    after?: { createdAt: string; id: string },
  ): Promise<VpatListRecord[]> {
    return listReports(this.ctx.db, org, siteId, limit, after);
  }

  /** Derives a new draft report from one scan plus overrides, stores it with its `vpat.generated` event. */
  async generate(org: string, author: ReportAuthor, input: GenerateVpatInput): Promise<VpatReport> {
    const catalog = editionCatalog(input.edition, input.wcag_version, input.level);
    const rowIds = catalogRowIds(catalog);
    const invalid: FieldError[] = input.overrides.flatMap((o, i) =>
      rowIds.has(o.criterion)
        ? []
        : [
            {
              pointer: `#/overrides/${i}/criterion`,
              detail: `"${o.criterion}" is not a row of a ${catalog.title} report for WCAG ${input.wcag_version} Level ${input.level}`,
            },
          ],
    );
    if (invalid.length > 0) throw domainErrors.invalid(invalid);

    const scan = await this.scanFor(org, input);
    const now = nowIso();
    const explicit: OverrideRecord[] = input.overrides.map((o) => ({
      criterion: o.criterion,
      kind: 'level',
      conformance: o.conformance,
      remarks: o.remarks,
      author: o.author,
      author_key_id: author.keyId,
      created_at: now,
      inherited_from: null,
    }));
    const warnings: string[] = [];
    const inherited = input.inherit_overrides_from
      ? await this.inherited(org, input.inherit_overrides_from, scan, explicit, rowIds, warnings)
      : [];
    const assessment = await assessmentForReport(this.ctx, org, input.siteId, input.assessment_id);
    const site = await getSite(this.ctx.db, org, input.siteId);
    const reportProduct = product(input.product, site?.url ?? null);
    const { report, refused } = await assembleReport(this.ctx.db, scan, {
      assessment,
      developerLinks: input.developer_links ?? false,
      publicUrl: reportProduct.url ?? null,
      id: newId('vpt'),
      version: 1,
      previousId: null,
      catalog,
      edition: input.edition,
      wcagVersion: input.wcag_version,
      level: input.level,
      product: reportProduct,
      evaluationMethods: input.evaluation_methods ?? null,
      decisions: [...explicit, ...inherited],
      warnings,
      createdBy: { key_id: author.keyId, name: author.name },
    });
    // Only inherited decisions can be confirmations: the evidence they confirmed may not hold on this scan.
    for (const r of refused) {
      report.warnings.push(
        `The confirmation of ${r.decision.criterion} by ${r.decision.author} was not carried forward: ${r.reason}.`,
      );
    }
    await saveReport(this.ctx, org, report, 'vpat.generated');
    this.ctx.logger.info(
      { vpat_id: report.id, org, site_id: report.siteId, scan_id: report.scan_id },
      'vpat generated',
    );
    return report;
  }

  /** An earlier report's decisions carried forward (same site only), unless this request answers the row. */
  private async inherited(
    org: string,
    fromId: string,
    scan: EvidenceScan,
    explicit: OverrideRecord[],
    rowIds: ReadonlySet<string>,
    warnings: string[],
  ): Promise<OverrideRecord[]> {
    const earlier = await findReport(this.ctx.db, org, fromId);
    if (!earlier) throw domainErrors.notFound('report to inherit overrides from');
    // A person's answer about one site says nothing about another: carrying it would claim a review that
    // never happened (the same rule as a scan_id of another site).
    if (earlier.siteId !== scan.siteId) {
      throw domainErrors.invalid([
        {
          pointer: '#/inherit_overrides_from',
          detail: `report ${earlier.id} is of site "${earlier.siteId}", not "${scan.siteId}"`,
        },
      ]);
    }
    const given = new Set(explicit.map((o) => o.criterion));
    const out: OverrideRecord[] = [];
    for (const o of earlier.overrides) {
      if (given.has(o.criterion)) continue;
      if (!rowIds.has(o.criterion)) {
        warnings.push(
          `The override of ${o.criterion} in ${earlier.id} was not carried forward: this report has no such row.`,
        );
        continue;
      }
      out.push(carriedOverride(o, earlier.id));
    }
    return out;
  }

  private async scanFor(org: string, input: GenerateVpatInput): Promise<EvidenceScan> {
    if (input.scan_id) {
      const scan = await findEvidenceScan(this.ctx.db, org, input.scan_id);
      if (!scan) throw domainErrors.notFound('scan');
      if (scan.siteId !== input.siteId) {
        throw domainErrors.invalid([
          {
            pointer: '#/scan_id',
            detail: `scan ${scan.id} belongs to site "${scan.siteId}", not "${input.siteId}"`,
          },
        ]);
      }
      return scan;
    }
    const branch = await baseBranch(this.ctx.db, org, input.siteId);
    const scan = await latestEvidenceScan(this.ctx.db, org, input.siteId, branch);
    if (!scan) {
      throw domainErrors.notFound(
        `scan of site "${input.siteId}" on its base branch "${branch}" (submit one, or pass scan_id)`,
      );
    }
    return scan;
  }
}
