import fc from 'fast-check';
import { describeBaseline, type ScanRef } from '../../../core/gate/baseline.js';
import { evaluateGate } from '../../../core/gate/evaluation.js';
import type { GateScanIssue } from '../../../core/gate/issues.js';
import {
  BUILT_IN_GATE_SETTINGS,
  resolveGateSettings,
  type AppliedGateSettings,
} from '../../../core/gate/settings.js';
import { type IssueKind } from '../../../core/impact.js';
import { type Impact } from '../../../core/impact.js';
import { compileWaivers, type WaiverRule } from '../../../core/waivers/match.js';

const NOW = '2026-11-23T12:00:00.000Z';
const page = { url: 'https://shop.example/products/42' };
let ref = 0;

function head(
  fingerprint: string,
  impact: Impact | null = 'critical',
  kind: IssueKind = 'violation',
  rule = 'image-alt',
): GateScanIssue {
  return { ref: ++ref, fingerprint, rule, impact, kind, selector: `#${fingerprint}`, page };
}
function base(
  fingerprint: string,
  impact: Impact | null = 'critical',
  kind: IssueKind = 'violation',
): GateScanIssue {
  return { ref: ++ref, fingerprint, rule: '', impact, kind, selector: null, page };
}
const noWaivers = compileWaivers([], NOW);

function gate(
  h: GateScanIssue[] | null,
  b: GateScanIssue[] | null,
  settings: Partial<AppliedGateSettings> = {},
  waivers: WaiverRule[] = [],
  listCap?: number,
) {
  return evaluateGate({
    siteId: 'shop',
    sha: 'abcdef1234567890',
    head: h,
    baseline: b,
    waivers: waivers.length ? compileWaivers(waivers, NOW) : noWaivers,
    settings: { ...BUILT_IN_GATE_SETTINGS, ...settings },
    listCap,
  });
}

function waiver(w: Partial<WaiverRule>): WaiverRule {
  return {
    id: 'wvr_1',
    rule: 'image-alt',
    selector: null,
    urlPattern: null,
    fingerprint: null,
    expiresAt: '2027-01-01T00:00:00.000Z',
    revokedAt: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    ...w,
  };
}

describe('describeBaseline', () => {
  const headScan: ScanRef = {
    id: 'scn_h',
    sha: 'feed000',
    branch: 'feature',
    createdAt: '2026-11-20T12:00:00.000Z',
  };
  const found: ScanRef = {
    id: 'scn_m2',
    sha: 'aaa0002',
    branch: 'main',
    createdAt: '2026-11-20T10:00:00.000Z',
  };

  test('baseline_sha wins when given', () => {
    const c = describeBaseline({ head: headScan, baselineSha: 'BBB0001', baseBranch: 'main', scan: found });
    expect(c).toMatchObject({ strategy: 'baseline_sha', scan: { id: 'scn_m2' } });
    expect(c.reason).toBe('The latest scan of baseline_sha bbb0001, as the request asked.');
  });

  test('a baseline_sha without a scan names the base branch when the request asked to fall back', () => {
    const c = describeBaseline({
      head: headScan,
      baselineSha: 'ccc0000',
      baseBranch: 'main',
      scan: found,
      fellBack: true,
    });
    expect(c).toMatchObject({ strategy: 'base_branch', scan: { id: 'scn_m2' } });
    expect(c.reason).toMatch(
      /^The request named baseline_sha ccc0000, which has no scan, so the latest scan on the base branch "main"/,
    );
  });

  test('an unknown baseline_sha means no baseline (never a silent substitute)', () => {
    const c = describeBaseline({ head: headScan, baselineSha: 'ccc0000', baseBranch: 'main', scan: null });
    expect(c.scan).toBeNull();
    expect(c.strategy).toBe('baseline_sha');
    expect(c.reason).toMatch(/no scan/);
  });

  test('else the latest earlier scan on the base branch, named in the reason', () => {
    const c = describeBaseline({ head: headScan, baseBranch: 'main', scan: found });
    expect(c).toMatchObject({ strategy: 'base_branch', scan: { id: 'scn_m2' } });
    expect(c.reason).toMatch(/base branch "main"/);
  });

  test('a baseline fingerprinted with another version is still used, and the reason says so', () => {
    const c = describeBaseline({
      head: { ...headScan, fingerprintVersion: 2 },
      baseBranch: 'main',
      scan: { ...found, fingerprintVersion: 1 },
    });
    expect(c.scan?.id).toBe('scn_m2');
    expect(c.reason).toMatch(/version 1 and this commit's with version 2/);
    const same = describeBaseline({
      head: { ...headScan, fingerprintVersion: 1 },
      baseBranch: 'main',
      scan: { ...found, fingerprintVersion: 1 },
    });
    expect(same.reason).not.toMatch(/version/);
  });

  test('else none', () => {
    const c = describeBaseline({ head: headScan, baseBranch: 'develop', scan: null });
    expect(c).toMatchObject({ strategy: 'none', scan: null });
    expect(c.reason).toBe(
      'No scan of develop yet: every issue counts as new. Scan develop first, or commit a baseline file.',
    );
  });
});

describe('resolveGateSettings', () => {
  test('built-in defaults', () => {
    expect(resolveGateSettings({}, null)).toEqual(BUILT_IN_GATE_SETTINGS);
    expect(BUILT_IN_GATE_SETTINGS).toMatchObject({
      fail_on_critical: true,
      fail_on_serious: false,
      new_only: true,
      include_incomplete: false,
      max_total: null,
    });
  });

  test('site defaults fill what the request leaves out; the request wins', () => {
    const site = { fail_on_serious: true, max_total: 5, max_minor: 10 };
    expect(resolveGateSettings({ max_total: 2 }, site)).toMatchObject({
      fail_on_serious: true,
      max_total: 2,
      max_minor: 10,
    });
  });

  test('an explicit null limit in the request switches a site limit off; a null boolean falls through', () => {
    const r = resolveGateSettings(
      { max_total: null, fail_on_critical: null },
      { max_total: 5, fail_on_critical: false },
    );
    expect(r.max_total).toBeNull();
    expect(r.fail_on_critical).toBe(false);
  });
});

describe('evaluateGate', () => {
  test('no head scan: fails with no_scan', () => {
    const r = gate(null, null);
    expect(r.passed).toBe(false);
    expect(r.reasons.map((x) => x.code)).toEqual(['no_scan']);
    expect(r.reasons[0].message).toMatch(/No scan of site "shop" exists for commit abcdef123456/);
    expect(r.thresholds).toEqual([]);
  });

  test('no_scan for a short sha says that shas compare exactly', () => {
    const r = evaluateGate({
      siteId: 'shop',
      sha: 'abcdef1',
      head: null,
      baseline: null,
      waivers: noWaivers,
      settings: BUILT_IN_GATE_SETTINGS,
    });
    expect(r.reasons[0].message).toMatch(/exact sha, and this one has 7 characters/);
    const full = evaluateGate({
      siteId: 'shop',
      sha: 'a'.repeat(40),
      head: null,
      baseline: null,
      waivers: noWaivers,
      settings: BUILT_IN_GATE_SETTINGS,
    });
    expect(full.reasons[0].message).not.toMatch(/exact sha/);
  });

  test('new / existing / fixed by fingerprint', () => {
    const r = gate(
      [head('n1', 'minor'), head('e1', 'minor'), head('e2', 'moderate')],
      [base('e1', 'minor'), base('e2', 'moderate'), base('f1', 'serious'), base('f2', 'critical')],
    );
    expect(r.counts).toMatchObject({ new: 1, existing: 2, fixed: 2, waived: 0 });
    expect(r.counts.byImpact.minor).toEqual({ new: 1, existing: 1, fixed: 0, waived: 0 });
    expect(r.counts.byImpact.critical).toEqual({ new: 0, existing: 0, fixed: 1, waived: 0 });
    expect(r.newIssues.map((i) => i.fingerprint)).toEqual(['n1']);
    expect(r.newIssuesTotal).toBe(1);
  });

  test('no baseline: every head issue is new', () => {
    const r = gate([head('a', 'minor'), head('b', 'minor')], null);
    expect(r.counts).toMatchObject({ new: 2, existing: 0, fixed: 0 });
  });

  test('one new critical issue fails by default with critical_issues', () => {
    const r = gate([head('old', 'critical'), head('new', 'critical')], [base('old', 'critical')]);
    expect(r.passed).toBe(false);
    expect(r.reasons).toEqual([
      { code: 'critical_issues', message: '1 new critical issue found; fail_on_critical allows none.' },
    ]);
    expect(r.thresholds).toEqual([{ name: 'fail_on_critical', limit: 0, actual: 1, passed: false }]);
  });

  test('existing critical issues do not fail a new_only gate; they do with new_only false', () => {
    const h = [head('old', 'critical')];
    const b = [base('old', 'critical')];
    expect(gate(h, b).passed).toBe(true);
    const all = gate(h, b, { new_only: false });
    expect(all.passed).toBe(false);
    expect(all.reasons[0]).toEqual({
      code: 'critical_issues',
      message: '1 critical issue (new and existing) found; fail_on_critical allows none.',
    });
  });

  test('head equal to baseline passes', () => {
    const r = gate([head('a'), head('b', 'serious')], [base('a'), base('b', 'serious')], {
      fail_on_serious: true,
      max_total: 0,
    });
    expect(r.passed).toBe(true);
    expect(r.counts).toMatchObject({ new: 0, existing: 2, fixed: 0 });
  });

  test('fixed issues never fail the gate', () => {
    const r = gate([], [base('a'), base('b'), base('c', 'serious')], { max_total: 0, fail_on_serious: true });
    expect(r.passed).toBe(true);
    expect(r.counts.fixed).toBe(3);
  });

  test('fail_on_serious is off by default and counts serious issues when on', () => {
    const h = [head('s', 'serious')];
    expect(gate(h, null).passed).toBe(true);
    const r = gate(h, null, { fail_on_serious: true });
    expect(r.reasons.map((x) => x.code)).toEqual(['serious_issues']);
  });

  test('fail_on_critical can be switched off', () => {
    expect(gate([head('c', 'critical')], null, { fail_on_critical: false }).passed).toBe(true);
  });

  test('max_* limits: 0 means none allowed, the limit itself is allowed, absent is not checked', () => {
    const h = [head('m1', 'moderate'), head('m2', 'moderate'), head('x', 'minor')];
    const zero = gate(h, null, { max_minor: 0 });
    expect(zero.reasons).toEqual([
      { code: 'max_minor_exceeded', message: '1 new minor issue exceeds max_minor (at most 0 allowed).' },
    ]);
    expect(gate(h, null, { max_moderate: 2 }).passed).toBe(true);
    const over = gate(h, null, { max_moderate: 1, max_total: 2, max_critical: 0, max_serious: 0 });
    expect(over.reasons.map((x) => x.code)).toEqual(['max_moderate_exceeded', 'max_total_exceeded']);
    expect(over.reasons[1].message).toBe('3 new issues in all exceed max_total (at most 2 allowed).');
    expect(over.thresholds).toEqual([
      { name: 'fail_on_critical', limit: 0, actual: 0, passed: true },
      { name: 'max_critical', limit: 0, actual: 0, passed: true },
      { name: 'max_serious', limit: 0, actual: 0, passed: true },
      { name: 'max_moderate', limit: 1, actual: 2, passed: false },
      { name: 'max_total', limit: 2, actual: 3, passed: false },
    ]);
    // Not checked: only fail_on_critical appears.
    expect(gate(h, null).thresholds.map((t) => t.name)).toEqual(['fail_on_critical']);
  });

  test('thresholds never relax one another (docs/gate.md): max_critical does not lift fail_on_critical', () => {
    const h = [head('c1', 'critical')];
    const both = gate(h, null, { max_critical: 3 });
    expect(both.reasons.map((x) => x.code)).toEqual(['critical_issues']);
    expect(both.thresholds).toEqual([
      { name: 'fail_on_critical', limit: 0, actual: 1, passed: false },
      { name: 'max_critical', limit: 3, actual: 1, passed: true },
    ]);
    expect(gate(h, null, { max_critical: 3, fail_on_critical: false }).passed).toBe(true);
    expect(gate(h, null, { fail_on_serious: true, fail_on_critical: false }).passed).toBe(true);
  });

  test('max_total counts issues of unknown impact; new_only false counts existing too', () => {
    const h = [head('u', null), head('e', 'minor')];
    const b = [base('e', 'minor')];
    expect(gate(h, b, { max_total: 0 }).thresholds[1]).toMatchObject({ actual: 1 });
    expect(gate(h, b, { max_total: 0, new_only: false }).thresholds[1]).toMatchObject({ actual: 2 });
    expect(gate(h, b).counts.byImpact.unknown).toEqual({ new: 1, existing: 0, fixed: 0, waived: 0 });
  });

  test('incomplete issues are ignored unless include_incomplete', () => {
    const h = [head('i', 'critical', 'incomplete')];
    const off = gate(h, null);
    expect(off.passed).toBe(true);
    expect(off.counts.new).toBe(0);
    const on = gate(h, null, { include_incomplete: true });
    expect(on.passed).toBe(false);
    expect(on.counts.new).toBe(1);
  });

  test('an incomplete baseline issue still makes the same fingerprint existing, not new', () => {
    const r = gate([head('x', 'critical')], [base('x', 'critical', 'incomplete')]);
    expect(r.counts).toMatchObject({ new: 0, existing: 1, fixed: 0 });
  });

  test('waived issues are listed with the waiver id and not counted', () => {
    const r = gate([head('n1', 'critical'), head('n2', 'minor', 'violation', 'region')], null, {}, [
      waiver({ id: 'wvr_img', rule: 'image-alt' }),
    ]);
    expect(r.passed).toBe(true);
    expect(r.counts).toMatchObject({ new: 1, waived: 1 });
    expect(r.counts.byImpact.critical.waived).toBe(1);
    expect(r.waivedIssues).toEqual([
      expect.objectContaining({
        waiverId: 'wvr_img',
        status: 'new',
        issue: expect.objectContaining({ fingerprint: 'n1' }) as unknown,
      }),
    ]);
    expect(r.newIssues.map((i) => i.fingerprint)).toEqual(['n2']);
  });

  test('an existing issue can be waived too (it then does not count with new_only false)', () => {
    const r = gate([head('e', 'critical')], [base('e', 'critical')], { new_only: false }, [waiver({})]);
    expect(r.passed).toBe(true);
    expect(r.waivedIssues[0].status).toBe('existing');
    expect(r.counts).toMatchObject({ existing: 0, waived: 1 });
  });

  test('expired and revoked waivers are ignored', () => {
    const h = [head('n1', 'critical')];
    expect(gate(h, null, {}, [waiver({ expiresAt: '2026-11-01T00:00:00.000Z' })]).passed).toBe(false);
    expect(gate(h, null, {}, [waiver({ revokedAt: '2026-11-20T00:00:00.000Z' })]).passed).toBe(false);
  });

  test('waivers match by fingerprint, selector and URL glob', () => {
    const h = [head('n1', 'critical')];
    expect(gate(h, null, {}, [waiver({ fingerprint: 'n1' })]).passed).toBe(true);
    expect(gate(h, null, {}, [waiver({ fingerprint: 'other' })]).passed).toBe(false);
    expect(gate(h, null, {}, [waiver({ selector: '#n1' })]).passed).toBe(true);
    expect(gate(h, null, {}, [waiver({ selector: '#n2' })]).passed).toBe(false);
    expect(gate(h, null, {}, [waiver({ urlPattern: '/products/*' })]).passed).toBe(true);
    expect(gate(h, null, {}, [waiver({ urlPattern: '/cart' })]).passed).toBe(false);
  });

  test('a waived issue is not "fixed" from the baseline', () => {
    const r = gate([head('e', 'critical')], [base('e', 'critical')], {}, [waiver({})]);
    expect(r.counts).toMatchObject({ fixed: 0, waived: 1 });
  });

  test('the new-issue list is capped, most severe first; the total is exact', () => {
    const h = [
      ...Array.from({ length: 5 }, (_, i) => head(`minor${i}`, 'minor')),
      ...Array.from({ length: 3 }, (_, i) => head(`crit${i}`, 'critical')),
      head('unk', null),
      head('ser', 'serious'),
    ];
    const r = gate(h, null, {}, [], 4);
    expect(r.newIssuesTotal).toBe(10);
    expect(r.newIssues.map((i) => i.fingerprint)).toEqual(['crit0', 'crit1', 'crit2', 'ser']);
  });

  test('a fingerprint held twice in the head and once in the baseline is one existing and one new issue', () => {
    const r = gate([head('d', 'minor'), head('d', 'minor')], [base('d', 'minor')]);
    expect(r.counts).toMatchObject({ new: 1, existing: 1, fixed: 0 });
    expect(r.newIssues).toHaveLength(1);
  });

  test('within an impact the list keeps the scan order, whatever the fingerprint order', () => {
    const r = gate([head('zz', 'critical'), head('aa', 'critical'), head('mm', 'critical')], null);
    expect(r.newIssues.map((i) => i.fingerprint)).toEqual(['zz', 'aa', 'mm']);
  });

  test('agrees with a plain multiset reading of the matching on random scans', () => {
    const impact = fc.constantFrom<Impact | null>('critical', 'serious', 'moderate', 'minor', null);
    const kind = fc.constantFrom<IssueKind>('violation', 'incomplete');
    // A small fingerprint alphabet so that scans overlap and repeat fingerprints.
    const fpArb = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
    const issue = fc.record({ fingerprint: fpArb, impact, kind });
    fc.assert(
      fc.property(
        fc.array(issue, { maxLength: 30 }),
        fc.option(
          fc.array(
            issue.map((x) => ({ ...x, ref: 0, rule: '', selector: null, page })),
            { maxLength: 30 },
          ),
          { nil: null },
        ),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }),
        (h, b, newOnly, includeIncomplete, waivedFp) => {
          const headIssues = h.map((x, k) => ({ ...x, ref: k, rule: 'r', selector: null, page }));
          const r = gate(
            headIssues,
            b,
            { new_only: newOnly, include_incomplete: includeIncomplete, max_total: 3, fail_on_serious: true },
            waivedFp ? [waiver({ rule: 'r', fingerprint: waivedFp })] : [],
          );
          // The reference: fingerprints pair one to one (multiplicity), in scan order; the rest is new or fixed.
          const counted = (k: IssueKind) => k === 'violation' || includeIncomplete;
          const left = new Map<string, number>();
          for (const x of b ?? []) left.set(x.fingerprint, (left.get(x.fingerprint) ?? 0) + 1);
          const paired = headIssues.map((x) => {
            const n = left.get(x.fingerprint) ?? 0;
            if (n > 0) left.set(x.fingerprint, n - 1);
            return n > 0;
          });
          const unpaired = new Map(left);
          const fixed = [...(b ?? [])].reverse().filter((x) => {
            const n = unpaired.get(x.fingerprint) ?? 0;
            if (n > 0) unpaired.set(x.fingerprint, n - 1);
            return n > 0 && counted(x.kind);
          });
          const live = headIssues.filter((x) => counted(x.kind));
          const waived = live.filter((x) => x.fingerprint === waivedFp);
          const rest = live.filter((x) => x.fingerprint !== waivedFp);
          const isNew = rest.filter((x) => !paired[x.ref]);
          const existing = rest.filter((x) => paired[x.ref]);
          expect(r.counts).toMatchObject({
            new: isNew.length,
            existing: existing.length,
            fixed: fixed.length,
            waived: waived.length,
          });
          const judged = newOnly ? isNew : [...isNew, ...existing];
          const crit = judged.filter((x) => x.impact === 'critical').length;
          const ser = judged.filter((x) => x.impact === 'serious').length;
          expect(r.passed).toBe(crit === 0 && ser === 0 && judged.length <= 3);
          expect(r.newIssues.map((x) => x.ref).sort()).toEqual(isNew.map((x) => x.ref).sort());
        },
      ),
      { numRuns: 500 },
    );
  });
});
