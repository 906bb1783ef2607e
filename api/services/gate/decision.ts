import { describeBaseline, type BaselineChoice, type ScanRef } from '../../../core/gate/baseline.js';
import { evaluateGate, type GateEvaluation, type GateInput } from '../../../core/gate/evaluation.js';
import type { IssueColumns } from '../../../core/gate/issues.js';
import type { AppliedGateSettings } from '../../../core/gate/settings.js';
import type { MatchDetails } from '../../../core/matching/element-identity.js';
import { fingerprintStep, similarityStep, type IssueMatching } from '../../../core/matching/matcher.js';
import { keepSharedPages } from '../../../core/matching/shared-pages.js';
import { pageKey } from '../../../core/url-normalisation.js';
import { viewportPageKey } from '../../../core/matching/fingerprint.js';
import { compileWaivers } from '../../../core/waivers/match.js';
import type { ApiContext } from '../../context.js';
import type { DeployTriggerBody } from '../../schemas/gate/deploys.js';
import { findGateScans } from '../../store/gate/gate-scans.js';
import {
  addWaiverFields,
  issueDetails,
  scanIssues,
  scanPages,
  type GatePageRow,
  type IssueDetail,
} from '../../store/gate/compared-scans.js';
import { matchDetails } from '../../store/gate/match-evidence.js';
import { openShardedScanForSha, shardsOf } from '../../store/scans/shards.js';
import { shardStatus } from '../../../core/scans/shards.js';
import type { SiteRecord } from '../../store/sites/sites.js';
import { activeWaiversForSite } from '../../store/waivers/waivers.js';
import type { BaselineView } from './deploy-view.js';
import { pageCoverage, type CoveredPages, type PageCoverage } from '../../../core/gate/coverage.js';

/**
 * Reads what a gate decision needs and decides: the head scan, the baseline, both scans' issues, their
 * matching (fingerprints first; the details of the rest only), the site's active waivers.
 */

export interface GateDecision {
  headScan: ScanRef | null;
  baseline: BaselineChoice | null;
  evaluation: GateEvaluation;
  /** Details of the listed head issues, by row id. */
  details: Map<number, IssueDetail>;
  /** Selector and page of the baseline issues the listed ones were paired with, by row id. */
  baselineViews: Map<number, BaselineView>;
  /** A partial head scan: the pages it compared; null when it is full. */
  coverage: PageCoverage | null;
  /** Milliseconds per phase, for the log line (a slow gate can be explained from the logs alone). */
  ms: Record<string, number>;
}

interface ScanSide {
  issues: IssueColumns;
  /** Whether active waivers may need the compared issues' rule, selector and page (none: no waiver). */
  waivable: boolean;
  pages: Map<number, GatePageRow>;
  pageKeys: Map<number, string>;
}

async function readSide(
  ctx: ApiContext,
  scanId: string,
  waiverRules: string[],
  withFields: boolean,
): Promise<ScanSide> {
  const [issues, pages] = await Promise.all([scanIssues(ctx.db, scanId), scanPages(ctx.db, scanId)]);
  if (withFields) await addWaiverFields(ctx.db, scanId, issues, waiverRules, pages);
  return { issues, waivable: waiverRules.length > 0, pages, pageKeys: new Map() };
}

const NO_PAGE = { url: '' };

/**
 * A page's key (pages pair across scans by normalised URL and viewport), computed once per page of a
 * side.
 */
function pageKeyOf(side: ScanSide, pageIndex: number): string {
  let key = side.pageKeys.get(pageIndex);
  if (key === undefined) {
    const page = side.pages.get(pageIndex);
    key = page ? viewportPageKey(pageKey(page.normalizedUrl), page.viewport) : `#${pageIndex}`;
    side.pageKeys.set(pageIndex, key);
  }
  return key;
}

function byRef(side: ScanSide, indices: readonly number[]) {
  const refs = indices.map((i) => side.issues.refs[i]);
  const indexOf = new Map<number, number>();
  for (let k = 0; k < refs.length; k++) indexOf.set(refs[k], indices[k]);
  return { refs, indexOf };
}

/**
 * The matcher's details of the issues at `indices` of one side, keyed by index. With active waivers the
 * issues get their rule, selector and page too: a waiver that covers a baseline issue covers the head
 * issue paired with it. (An event's own views of them come from the listed details and baselineViews.)
 */
async function detailsOf(ctx: ApiContext, scanId: string, side: ScanSide, indices: number[]) {
  const { refs, indexOf } = byRef(side, indices);
  const out = new Map<number, MatchDetails & { pageUrl: string }>();
  for (const r of await matchDetails(ctx.db, scanId, refs)) {
    const page = side.pages.get(r.pageIndex);
    const index = indexOf.get(r.id)!;
    if (side.waivable)
      side.issues.fields.set(index, { rule: r.rule, selector: r.selector, page: page ?? NO_PAGE });
    out.set(index, {
      rule: r.rule,
      page: pageKeyOf(side, r.pageIndex),
      pageUrl: page?.url ?? '',
      selector: r.selector,
      html: r.html,
      position: r.id,
    });
  }
  return out;
}

async function matchSides(
  ctx: ApiContext,
  ids: [string, string],
  [head, base]: [ScanSide, ScanSide],
  fingerprints: boolean,
  lap: (phase: string) => void,
) {
  const step = fingerprintStep(head.issues.fingerprints, base.issues.fingerprints, fingerprints);
  keepSharedPages(
    step,
    (i) => pageKeyOf(head, head.issues.pages[i]),
    (j) => pageKeyOf(base, base.issues.pages[j]),
  );
  lap('fingerprints');
  const [h, b] = await Promise.all([
    detailsOf(ctx, ids[0], head, step.headNeeds),
    detailsOf(ctx, ids[1], base, step.baselineNeeds),
  ]);
  lap('compared');
  const matching: IssueMatching = similarityStep(step, h, b);
  const baselineViews = new Map<number, BaselineView>();
  for (const [j, d] of b) {
    // Only a paired baseline issue is ever shown (beside its head issue).
    if (matching.baselineToHead[j] < 0) continue;
    baselineViews.set(base.issues.refs[j], { selector: d.selector, page: { url: d.pageUrl } });
  }
  return { matching, baselineViews };
}

/**
 * What a partial head scan compares: its pages (by key), out of those and the baseline's; the baseline's
 * issues on other pages are left out of the evaluation (core/gate/coverage.ts).
 */
function coverageOf(head: ScanSide, base: ScanSide | null) {
  const pages = [...head.pages.values()]
    .sort((a, b) => a.index - b.index)
    .map((p) => ({ url: p.url, key: pageKeyOf(head, p.index) }));
  const baseKeys = base ? [...base.pages.keys()].map((i) => pageKeyOf(base, i)) : null;
  const { coverage, keys } = pageCoverage(pages, baseKeys);
  const covered: CoveredPages | undefined = base
    ? { keys, pageOf: (j) => pageKeyOf(base, base.issues.pages[j]) }
    : undefined;
  return { coverage, covered };
}

async function chooseScans(ctx: ApiContext, org: string, input: DeployTriggerBody, site: SiteRecord) {
  const found = await findGateScans(ctx.db, {
    org,
    siteId: input.siteId,
    sha: input.sha,
    baselineSha: input.baseline_sha,
    fallbackToBaseBranch: input.baseline_fallback === 'base_branch',
    baseBranch: site.baseBranch,
  });
  if (!found.head) {
    return { headScan: null, baseline: null, openScan: await openShardedScan(ctx, org, input) };
  }
  const baseline = describeBaseline({
    head: found.head,
    baselineSha: input.baseline_sha,
    baseBranch: site.baseBranch,
    scan: found.baseline ?? null,
    passedOver: found.passedOver ?? null,
    fellBack: found.fellBack ?? false,
    partialOnly: found.partialOnly ?? false,
  });
  return { headScan: found.head, baseline };
}

/** The commit's open sharded scan, if any, with its shards: what the gate's answer says it waits for. */
async function openShardedScan(ctx: ApiContext, org: string, input: DeployTriggerBody) {
  const open = await openShardedScanForSha(ctx.db, org, input.siteId, input.sha);
  if (!open) return undefined;
  const reported = (await shardsOf(ctx.db, open.id)).filter((s) => s.reportedAt !== null);
  const shards = shardStatus(
    open.shards,
    reported.map((s) => s.shard),
  );
  return { id: open.id, group: open.group, shards };
}

/** The decision without a head scan: the gate fails with `no_scan`, naming an open sharded scan if any. */
function noHeadScan(
  base: Pick<GateInput, 'siteId' | 'sha' | 'settings' | 'listCap'>,
  now: string,
  openScan: GateInput['openScan'],
): Omit<GateDecision, 'ms'> {
  const evaluation = evaluateGate({
    ...base,
    head: null,
    baseline: null,
    waivers: compileWaivers([], now),
    ...(openScan ? { openScan } : {}),
  });
  const none = { details: new Map(), baselineViews: new Map(), coverage: null };
  return { headScan: null, baseline: null, evaluation, ...none };
}

export async function decideGate(
  ctx: ApiContext,
  org: string,
  input: DeployTriggerBody,
  site: SiteRecord,
  settings: AppliedGateSettings,
  now: string,
): Promise<GateDecision> {
  const ms: Record<string, number> = {};
  let last = performance.now();
  const lap = (phase: string) => {
    const t = performance.now();
    ms[phase] = Math.round(t - last);
    last = t;
  };
  // The site's active waivers are read beside the choice of scans (unused if there is nothing to compare).
  const [{ headScan, baseline, openScan }, rules] = await Promise.all([
    chooseScans(ctx, org, input, site),
    activeWaiversForSite(ctx.db, org, input.siteId, now),
  ]);
  const base = { siteId: input.siteId, sha: input.sha, settings, listCap: DEPLOY_ISSUE_LIST_CAP };
  if (!headScan || !baseline) return { ...noHeadScan(base, now, openScan), ms };
  const waivers = compileWaivers(rules, now);
  const waiverRules = [...new Set(rules.map((w) => w.rule))];
  const baseScan = baseline.scan;
  const [head, base2] = await Promise.all([
    readSide(ctx, headScan.id, waiverRules, true),
    // The baseline's waiver fields come with the matcher's details, for the issues paired by them.
    baseScan ? readSide(ctx, baseScan.id, waiverRules, false) : Promise.resolve(null),
  ]);
  lap('read');
  const partial = headScan.scope === 'partial' ? coverageOf(head, base2) : null;
  let matched: Awaited<ReturnType<typeof matchSides>> | null = null;
  if (base2 && baseScan) {
    const comparable = headScan.fingerprintVersion === baseScan.fingerprintVersion;
    matched = await matchSides(ctx, [headScan.id, baseScan.id], [head, base2], comparable, lap);
    lap('similarity');
  }
  const evaluation = evaluateGate({
    ...base,
    head: head.issues,
    baseline: base2?.issues ?? null,
    matching: matched?.matching,
    waivers,
    engineChanged: baseline.engineChanged === true,
    ...(partial?.covered ? { covered: partial.covered } : {}),
  });
  lap('evaluate');
  const listed = [
    ...evaluation.newIssues,
    ...evaluation.waivedIssues.map((w) => w.issue),
    ...evaluation.similarIssues.map((s) => s.issue),
    ...evaluation.engineChangedIssues,
  ];
  const details = await issueDetails(ctx.db, headScan.id, [...new Set(listed.map((i) => Number(i.ref)))]);
  lap('details');
  return {
    headScan,
    baseline,
    evaluation,
    details,
    baselineViews: matched?.baselineViews ?? new Map<number, BaselineView>(),
    coverage: partial?.coverage ?? null,
    ms,
  };
}

/** How many issues each list of a deploy event shows; the totals are always exact. */
export const DEPLOY_ISSUE_LIST_CAP = 100;
