import { newId, nowIso } from '../domain/ids.js';
import { deriveReport } from '../domain/vpat-derive.js';
import { catalogRowIds, editionCatalog } from '../domain/vpat-editions.js';
import type { OverrideRecord, ProductContact, ReportProduct, VpatReport } from '../domain/vpat-report.js';
import type { ApiContext } from '../context.js';
import { problems, type FieldError } from '../http/problem.js';
import { ProductContact as ProductContactSchema, type GenerateVpatBody } from '../schemas/vpat.js';
import { VpatEvidenceRepository, type EvidenceScan } from '../store/vpat-evidence.js';
import { VpatRepository } from '../store/vpat.js';
import { axeRuleCoverage } from './axe-rule-coverage.js';
import type { z } from '../schemas/zod.js';

/** Scan warnings that say the scanned pages may not be the real ones (not `html_truncated`, not `no_pages`). */
const SUSPICIONS = new Set(['http_error_pages', 'shared_final_url', 'shared_title']);

export type GenerateVpatInput = z.output<typeof GenerateVpatBody>;

/** Who is generating: the calling API key (its name is the default author of overrides). */
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

function product(input: GenerateVpatInput['product']): ReportProduct {
  const p: ReportProduct = { name: input.name, version: input.version };
  if (input.vendor) p.vendor = input.vendor;
  if (input.description) p.description = input.description;
  const contact = normaliseContact(input.contact);
  if (contact) p.contact = contact;
  return p;
}

function defaultEvaluationMethods(scan: EvidenceScan, axeVersion: string | null): string {
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
    `Automated testing with ${engine} of ${scan.pageCount} page${scan.pageCount === 1 ? '' : 's'} of ${scan.url} (${where}); ` +
    `results mapped to WCAG success criteria with the rule tags of axe-core ${axeVersion ?? '(unknown version)'}. ` +
    'Automated testing finds only some accessibility failures: criteria answered Supports rest on automated evidence only and need a person’s confirmation, ' +
    'and criteria answered Not Evaluated need a person’s review. Answers given by named reviewers are marked as overrides.'
  );
}

export class VpatReportService {
  private readonly evidence: VpatEvidenceRepository;
  private readonly reports: VpatRepository;

  constructor(ctx: ApiContext) {
    this.evidence = new VpatEvidenceRepository(ctx.db);
    this.reports = new VpatRepository(ctx.db);
  }

  find(org: string, id: string): Promise<VpatReport | undefined> {
    return this.reports.find(org, id);
  }

  /** Derives a new, immutable report from one scan plus overrides, stores it with its `vpat.generated` event. */
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
    if (invalid.length > 0) throw problems.validation(invalid);

    const scan = await this.scanFor(org, input);
    const warnings: string[] = [];
    const now = nowIso();
    const explicit: OverrideRecord[] = input.overrides.map((o) => ({
      criterion: o.criterion,
      conformance: o.conformance,
      remarks: o.remarks,
      author: o.author ?? author.name,
      author_key_id: author.keyId,
      created_at: now,
      inherited_from: null,
    }));
    const overrides = [...explicit];
    if (input.inherit_overrides_from) {
      const earlier = await this.reports.find(org, input.inherit_overrides_from);
      if (!earlier) throw problems.notFound('report to inherit overrides from');
      // A person's answer about one site says nothing about another: carrying it would claim a review that
      // never happened (the same rule as a scan_id of another site).
      if (earlier.siteId !== scan.siteId) {
        throw problems.validation([
          {
            pointer: '#/inherit_overrides_from',
            detail: `report ${earlier.id} is of site "${earlier.siteId}", not "${scan.siteId}"`,
          },
        ]);
      }
      const given = new Set(explicit.map((o) => o.criterion));
      for (const o of earlier.overrides) {
        if (given.has(o.criterion)) continue;
        if (!rowIds.has(o.criterion)) {
          warnings.push(
            `The override of ${o.criterion} in ${earlier.id} was not carried forward: this report has no such row.`,
          );
          continue;
        }
        overrides.push({
          criterion: o.criterion,
          conformance: o.conformance,
          remarks: o.remarks,
          author: o.author,
          author_key_id: o.author_key_id,
          created_at: o.created_at,
          inherited_from: earlier.id,
        });
      }
    }

    const coverage = await axeRuleCoverage();
    const evidence = await this.evidence.evidence(scan, now, new Set(coverage.helpUrls.keys()));
    const unlisted = evidence.pages.filter((p) => p.rulesRun === null).length;
    if (unlisted > 0 && unlisted === evidence.pages.length) {
      warnings.push(
        'The scan did not list the rules that ran (rules_run): a rule counts as run only where it reported a result, so criteria without results stay Not Evaluated.',
      );
    } else if (unlisted > 0) {
      warnings.push(
        `${unlisted} of the ${evidence.pages.length} pages did not list the rules that ran on them (native pages without rules_run): ` +
          'a rule counts as run on those pages only where it reported a result, so criteria without results on them stay Not Evaluated.',
      );
    } else if (evidence.pages.length === 0 && scan.rulesRun === null) {
      warnings.push(
        'The scan did not list the rules that ran (rules_run): a rule counts as run only where it reported a result, so criteria without results stay Not Evaluated.',
      );
    }
    if (evidence.pages.length === 0)
      warnings.push('The scan has no pages: every criterion is Not Evaluated.');
    // The scan's own doubts about what it tested are doubts about every answer drawn from it.
    const doubts = scan.warnings.filter((w) => SUSPICIONS.has(w.code));
    for (const w of doubts) warnings.push(`The scan was flagged: ${w.message}`);
    evidence.suspect = doubts.length > 0;
    const derived = deriveReport({ catalog, coverage, evidence, overrides });
    const report: VpatReport = {
      id: newId('vpt'),
      siteId: scan.siteId,
      scan_id: scan.id,
      status: derived.status,
      title: catalog.title,
      product: product(input.product),
      edition: input.edition,
      wcag_version: input.wcag_version,
      level: input.level,
      catalog: catalog.catalogName,
      evaluation_methods: input.evaluation_methods ?? defaultEvaluationMethods(scan, coverage.engineVersion),
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
      warnings,
      created_by: { key_id: author.keyId, name: author.name },
      created_at: now,
    };
    await this.reports.insert(org, report);
    return report;
  }

  private async scanFor(org: string, input: GenerateVpatInput): Promise<EvidenceScan> {
    if (input.scan_id) {
      const scan = await this.evidence.findScan(org, input.scan_id);
      if (!scan) throw problems.notFound('scan');
      if (scan.siteId !== input.siteId) {
        throw problems.validation([
          {
            pointer: '#/scan_id',
            detail: `scan ${scan.id} belongs to site "${scan.siteId}", not "${input.siteId}"`,
          },
        ]);
      }
      return scan;
    }
    const branch = await this.evidence.baseBranch(org, input.siteId);
    const scan = await this.evidence.latestScanOnBranch(org, input.siteId, branch);
    if (!scan) {
      throw problems.notFound(
        `scan of site "${input.siteId}" on its base branch "${branch}" (submit one, or pass scan_id)`,
      );
    }
    return scan;
  }
}
