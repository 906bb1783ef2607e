import { evaluateGate, type GateEvaluation } from '../core/gate/evaluation.js';
import type { GateScanIssue } from '../core/gate/issues.js';
import { resolveGateSettings, type GateSettingsLayer } from '../core/gate/settings.js';
import type { MatchDetails } from '../core/matching/element-identity.js';
import { matchIssues, type IssueMatching, type MatchIssue } from '../core/matching/matcher.js';
import { viewportPageKey } from '../core/matching/fingerprint.js';
import { urlMatcher } from '../core/waivers/glob.js';
import { normaliseWaiverSelector, type WaiverMatcher } from '../core/waivers/match.js';
import { normalizeUrl } from '../core/url-normalisation.js';
import type { Finding } from './findings.js';
import { entryOf, pageOfUrl, type BaselineEntry } from './baseline-file.js';
import { comparesBaselineIssue, pageCoverage, type PageCoverage } from '../core/gate/coverage.js';
import { expired, type Ignore } from './ignores.js';

/**
 * The gate without a service: this scan's violations against the committed baseline file, judged by the
 * kernel's matcher and evaluation with the service's thresholds (core/gate), so a commit gets the same
 * answer from the CLI alone as from the service. Pure: the caller reads and writes the file.
 */

export interface LocalVerdict {
  evaluation: GateEvaluation;
  /** Null: no baseline file, every issue is new. */
  baseline: readonly BaselineEntry[] | null;
  /** The new issues' findings, most severe first (as the evaluation lists them). */
  newFindings: Finding[];
  /** Baseline entries no longer found (of a partial scan, on the pages it scanned). */
  fixed: BaselineEntry[];
  /** A partial scan: the pages compared, out of how many; null for a full scan. */
  coverage: PageCoverage | null;
  /** A partial scan: the baseline's entries on pages it did not scan, kept as they are. */
  kept: BaselineEntry[];
  /** Baseline entries found again but past their `until`: their issues count as new. */
  lapsed: BaselineEntry[];
  /** Ignores past their `until`, which no longer apply. */
  lapsedIgnores: Ignore[];
  /**
   * What the baseline file holds after this run when it is recorded: the issues found, ignores aside, and
   * after a partial scan the entries it kept.
   */
  recorded: BaselineEntry[];
}

/** What the gate without a service is judged with: the thresholds given (null: the default) and the ignores. */
export interface LocalGateSettings {
  failOnCritical: boolean | null;
  failOnSerious: boolean | null;
  maxNewIssues: number | null;
  ignores: Ignore[];
}

type Side = MatchIssue & MatchDetails;

/** Every entry `count` times: the matcher pairs issues one by one. */
function expand(entries: readonly BaselineEntry[]): BaselineEntry[] {
  return entries.flatMap((e) => Array.from({ length: e.count ?? 1 }, () => e));
}

const details = (e: BaselineEntry): Side => ({
  fingerprint: e.fingerprint,
  rule: e.rule,
  // Issues pair within one page at one viewport, as the service's gate pairs them.
  page: viewportPageKey(e.page, e.viewport),
  selector: e.selector,
  html: e.html ?? null,
});

/** The configuration's ignores as the evaluation's waivers: every criterion an ignore names must match. */
export function ignoreMatcher(ignores: readonly Ignore[], now: Date): WaiverMatcher {
  const active = ignores
    .map((ignore, n) => ({
      id: `ignore ${n + 1}`,
      rule: ignore.rule ?? null,
      selector: ignore.selector ? normaliseWaiverSelector(ignore.selector) : null,
      url: ignore.url ? urlMatcher(ignore.url) : null,
      lapsed: expired(ignore.until, now),
    }))
    .filter((i) => !i.lapsed);
  return {
    size: active.length,
    match(issue) {
      const selector = issue.selector ? normaliseWaiverSelector(issue.selector) : null;
      return active.find(
        (i) =>
          (!i.rule || i.rule === issue.rule) &&
          (!i.selector || i.selector === selector) &&
          (!i.url || issue.pageUrls.some(i.url)),
      )?.id;
    },
  };
}

/** The thresholds: the service's defaults, and with no baseline at all every violation fails (as pa11y-ci). */
function settingsOf(options: LocalGateSettings, hasBaseline: boolean) {
  const request: GateSettingsLayer = {};
  if (options.failOnCritical !== null) request.fail_on_critical = options.failOnCritical;
  if (options.failOnSerious !== null) request.fail_on_serious = options.failOnSerious;
  if (options.maxNewIssues !== null) request.max_total = options.maxNewIssues;
  return resolveGateSettings(request, hasBaseline ? null : { max_total: 0 });
}

function headIssue(f: Finding, e: BaselineEntry, ref: number): GateScanIssue {
  return {
    ref,
    fingerprint: e.fingerprint,
    rule: f.rule,
    impact: e.impact,
    kind: 'violation',
    selector: e.selector,
    page: { url: f.pageUrl, normalizedUrl: normalizeUrl(f.pageUrl) ?? null },
  };
}

/** The baseline entries the matching left unpaired and that were compared, each once. */
function unpaired(
  entries: readonly BaselineEntry[],
  matching: IssueMatching,
  compared: (j: number) => boolean,
): BaselineEntry[] {
  const out = new Set<BaselineEntry>();
  entries.forEach((e, j) => {
    if (matching.baselineToHead[j] < 0 && compared(j)) out.add(e);
  });
  return [...out];
}

/**
 * Judges the findings against the baseline file. `partial`: the scan covers only some pages (these URLs,
 * the pages scanned), so the file's entries on other pages are neither fixed nor existing, and kept.
 */
export function judgeLocally(
  findings: readonly Finding[],
  baseline: readonly BaselineEntry[] | null,
  options: LocalGateSettings,
  now: Date,
  partial: readonly string[] | null = null,
): LocalVerdict {
  const violations = findings.filter((f) => f.kind === 'violation');
  const entries = violations.map(entryOf);
  const head = entries.map((e, i) => ({ ...details(e), html: violations[i].html || null }));
  const all = expand(baseline ?? []);
  // Entries past their date are first paired like any other, so the issue they name counts as new rather
  // than as existing, and is not also left over as fixed.
  const first = matchIssues(head, all.map(details));
  const lapsedAt = new Set(
    all.flatMap((e, j) => (first.baselineToHead[j] >= 0 && expired(e.until, now) ? [j] : [])),
  );
  const compared = all.filter((_, j) => !lapsedAt.has(j));
  const matching = matchIssues(head, compared.map(details));
  const issues = violations.map((f, i) => headIssue(f, entries[i], i));
  const waivers = ignoreMatcher(options.ignores, now);
  const scope = partial
    ? pageCoverage(
        partial.map((url) => ({ url, key: pageOfUrl(url) })),
        baseline && baseline.map((e) => e.page),
      )
    : null;
  const covered = scope ? { keys: scope.keys, pageOf: (j: number) => compared[j].page } : undefined;
  const evaluation = evaluateGate({
    siteId: 'local',
    sha: '',
    head: issues,
    baseline: baseline ? compared.map((e, j) => ({ ...headIssueOfEntry(e), ref: j })) : null,
    matching: baseline ? matching : undefined,
    waivers,
    settings: settingsOf(options, baseline !== null),
    listCap: Math.max(1, issues.length),
    covered,
  });
  const kept = scope ? (baseline ?? []).filter((e) => !scope.keys.has(e.page)) : [];
  // Recorded: what is found, each keeping the reason and date of the entry it was paired with.
  const recorded = entries.flatMap((e, i) => {
    const page = issues[i].page;
    const pageUrls = [page.url, ...(page.normalizedUrl ? [page.normalizedUrl] : [])];
    if (waivers.match({ rule: e.rule, selector: e.selector, fingerprint: e.fingerprint, pageUrls }))
      return [];
    const j = first.headToBaseline[i];
    const was = j >= 0 ? all[j] : null;
    return [
      { ...e, ...(was?.reason ? { reason: was.reason } : {}), ...(was?.until ? { until: was.until } : {}) },
    ];
  });
  return {
    evaluation,
    baseline,
    newFindings: evaluation.newIssues.map((issue) => violations[issue.ref as number]),
    fixed: unpaired(compared, matching, (j) => comparesBaselineIssue(covered, j)),
    coverage: scope?.coverage ?? null,
    kept,
    lapsed: [...new Set([...lapsedAt].map((j) => all[j]))],
    lapsedIgnores: options.ignores.filter((i) => expired(i.until, now)),
    recorded: [...recorded, ...kept],
  };
}

function headIssueOfEntry(e: BaselineEntry): Omit<GateScanIssue, 'ref'> {
  return {
    fingerprint: e.fingerprint,
    rule: e.rule,
    impact: e.impact,
    kind: 'violation',
    selector: e.selector,
    page: { url: e.page },
  };
}
