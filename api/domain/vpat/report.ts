import type { RelatedFailure } from '../catalog/act-relations.js';
import type { Conformance, Edition } from './editions.js';
import { type WcagLevel, type WcagVersion } from '../../../core/catalog/wcag-types.js';
import type { NotApplicableSuggestion } from './not-applicable.js';

/**
 * The report as stored and as `GET /api/v1/vpat/:id` returns it (api/schemas/vpat/reports.ts describes the same
 * JSON for validation and OpenAPI). Every renderer (HTML, Markdown, OpenACR) reads only this.
 */

/** Where an answer comes from: the scan, a named person, or the VPAT rules for rows a scan cannot decide. */
export type AnswerSource = 'evidence' | 'override' | 'default' | 'assessment';

/** The precise reason behind an answer, for reviewers and for filtering. */
export type AnswerBasis =
  | 'violations'
  | 'incomplete'
  | 'rules-passed'
  /** A covering rule reported results the scan attributes only to other criteria: a person decides. */
  | 'rule-results-elsewhere'
  | 'rules-not-run'
  | 'no-coverage'
  | 'no-pages'
  | 'vpat-instructions'
  | 'chapter-default'
  | 'override'
  /** A person confirmed the automated evidence (`rules-passed`): the only way a row says Supports but an override. */
  | 'confirmed'
  /** The sampled pages of an assessment were tested by people (api/domain/vpat/human-evidence.ts). */
  | 'human-tested';

export interface OverrideInput {
  criterion: string;
  conformance: Conformance;
  remarks: string;
  /** The person who decided: only a person grants a level. */
  author: string;
}

/**
 * A person's decision as recorded: who, when, and (when carried forward) from which report. `level` grants a
 * conformance level; `confirm` accepts the automated evidence of a `rules-passed` row (granting `supports`).
 */
export interface OverrideRecord {
  criterion: string;
  /** Absent in reports stored before reviews existed: a level. */
  kind?: 'level' | 'confirm';
  conformance: Conformance;
  remarks: string;
  author: string;
  author_key_id: string | null;
  created_at: string;
  inherited_from: string | null;
}

/** An override as a later version carries it: the record alone (not how it applied), its kind explicit. */
export function carriedOverride(o: OverrideRecord, inheritedFrom: string | null): OverrideRecord {
  return {
    criterion: o.criterion,
    kind: o.kind ?? 'level',
    conformance: o.conformance,
    remarks: o.remarks,
    author: o.author,
    author_key_id: o.author_key_id,
    created_at: o.created_at,
    inherited_from: inheritedFrom,
  };
}

export interface AppliedOverride extends OverrideRecord {
  /** True when this report's evidence contradicts the override (e.g. `supports` but violations were found). */
  stale: boolean;
  stale_reason: string | null;
  /** Failures W3C's ACT rules relate to the criterion that the person answered over. */
  related_failures: RelatedFailure[];
}

export interface CriterionEvidence {
  /** Rule ids behind the answer: failing rules, rules with results to review, or the rules that ran clean. */
  rules: string[];
  /** Violations (waived ones included: a waiver is not conformance). */
  issues: number;
  pages_affected: number;
  pages_total: number;
  /** Incomplete (needs review) results. */
  incomplete: number;
  /** How many of `issues` are covered by an active waiver (null when waivers are not known). */
  waived: number | null;
  /** Help pages of the rules above. */
  help_urls: string[];
}

/**
 * A fix of one of the row's rules that an agent made and a person accepted (a claimed fix of a text rule,
 * docs/agents.md): the row's evidence rests in part on it, so the report names both.
 */
export interface AgentFix {
  fingerprint: string;
  rule: string;
  page_url: string | null;
  agent: string | null;
  model: string | null;
  session_url: string | null;
  accepted_by: string;
  accepted_at: string;
  deploy_id: string;
}

export interface ReportCriterion {
  id: string;
  title: string;
  /** WCAG level; null for Section 508 / EN 301 549 chapter rows. */
  level: WcagLevel | null;
  /** OpenACR chapter key of the table the row is in. */
  chapter: string;
  conformance: Conformance;
  remarks: string;
  source: AnswerSource;
  basis: AnswerBasis;
  /** True while a person still has to look at this row before the report can be signed. */
  needs_review: boolean;
  evidence: CriterionEvidence;
  /** Violations of rules W3C's ACT rules relate to this criterion but the scan attributed elsewhere. */
  related: RelatedFailure[];
  override?: AppliedOverride;
  /** What the evidence suggests a person answer (a row waiting for one); never an answer itself. */
  suggestion?: NotApplicableSuggestion;
  /** Fixes of the row's rules an agent made and a person accepted, by the scan's time. */
  agent_fixes?: AgentFix[];
}

export interface ReportChapter {
  id: string;
  standard: string;
  label: string;
  note: string | null;
}

export interface ProductContact {
  name?: string;
  email?: string;
  phone?: string;
  website?: string;
  address?: string;
}

export interface ReportProduct {
  name: string;
  version: string;
  vendor?: string;
  description?: string;
  /** The product's public address (never the host a CI job scanned). */
  url?: string;
  contact?: ProductContact;
}

export interface ReportScan {
  id: string;
  url: string;
  sha: string | null;
  branch: string | null;
  engine: { name: string | null; version: string | null };
  /** Different addresses tested (a URL at several viewports counts once). */
  pages: number;
  issues: number;
  /** Rule ids the scan says it ran; null when the scan did not say. */
  rules_run: string[] | null;
  created_at: string;
}

export type ReportStatus = 'draft' | 'final';

/** The assessment a report used: which, its sample (public paths) and who tested. */
export interface ReportAssessment {
  id: string;
  title: string;
  sample: string[];
  testers: string[];
  /**
   * How far into the assessment's changes this version read: the id of the last change to its results
   * (0: none yet). Results changed after it are newer than the report. Absent in reports stored before
   * versions recorded it (their creation time stands in).
   */
  changes_through?: number;
}

/** Evidence newer than a version: results of its assessment changed since, and scans of the base branch since. */
export interface ReportBehind {
  results: number;
  scans: number;
}

/** A version's lag behind the evidence, as it is read (never stored: newer evidence keeps arriving). */
export interface ReportBehindState extends ReportBehind {
  /** The assessment whose newer results are counted (the report's, else the site's newest), if any. */
  assessment_id: string | null;
  /** The newest scan of the site's base branch when it is newer than the report's. */
  latest_scan_id: string | null;
  /** "7 new results, 1 newer scan", or "up to date". */
  summary: string;
}

export interface ReportSummary {
  by_conformance: Record<Conformance, number>;
  /** Rows a person still has to look at (not evaluated, related failures, stale overrides). */
  needs_review: number;
  /** Rows that still lack a person's decision: the report cannot be published while any is left. */
  undecided: number;
  stale_overrides: number;
}

/** One failing rule of the scan, for comparing reports. */
export interface RuleViolations {
  rule: string;
  issues: number;
  pages_affected: number;
}

export interface VpatReport {
  id: string;
  siteId: string;
  scan_id: string;
  /** `final` only once published; every earlier version is a draft. */
  status: ReportStatus;
  /** 1 for a generated report; each review or publication makes the next version. */
  version: number;
  /** The version this one was made from (by a review or a publication); null for a generated report. */
  previous_id: string | null;
  /** `behind`: what newer evidence the person who published it chose to leave out (publish as it is). */
  published: { by: string; at: string; behind?: ReportBehind } | null;
  title: string;
  product: ReportProduct;
  edition: Edition;
  wcag_version: WcagVersion;
  level: WcagLevel;
  catalog: string;
  evaluation_methods: string;
  standards: Array<{ id: string; label: string; url: string }>;
  chapters: ReportChapter[];
  criteria: ReportCriterion[];
  overrides: AppliedOverride[];
  summary: ReportSummary;
  violations: RuleViolations[];
  scan: ReportScan;
  /** True when the remarks keep the developers' "How to fix" links (asked for at generation). */
  developer_links?: boolean;
  /** Absent when no assessment of the site was used. */
  assessment?: ReportAssessment;
  warnings: string[];
  created_by: { key_id: string | null; name: string };
  created_at: string;
  /** Newer evidence than this version was made from; added when a version is read, never stored. */
  behind?: ReportBehindState;
}
