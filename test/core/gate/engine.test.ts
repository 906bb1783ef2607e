import { describeBaseline, type ScanRef } from '../../../core/gate/baseline.js';
import {
  engineChangeSentence,
  enginesDiffer,
  sameEngine,
  type ScanEngine,
} from '../../../core/gate/engine.js';
import { evaluateGate } from '../../../core/gate/evaluation.js';
import type { GateScanIssue } from '../../../core/gate/issues.js';
import { BUILT_IN_GATE_SETTINGS, resolveGateSettings } from '../../../core/gate/settings.js';
import type { Impact } from '../../../core/impact.js';
import { compileWaivers } from '../../../core/waivers/match.js';

const NOW = '2026-11-23T12:00:00.000Z';
const page = { url: 'https://shop.example/' };
let ref = 0;
const issue = (fingerprint: string, impact: Impact = 'serious', rule = 'aria-tab-name'): GateScanIssue => ({
  ref: ++ref,
  fingerprint,
  rule,
  impact,
  kind: 'violation',
  selector: `#${fingerprint}`,
  page,
});

const OLD: ScanEngine = { name: 'axe-core', version: '4.10.3' };
const NEW: ScanEngine = { name: 'axe-core', version: '4.14.1' };

function gate(
  head: GateScanIssue[],
  baseline: GateScanIssue[],
  engineChanged: boolean,
  engine_upgrade: 'warn' | 'fail' = 'warn',
) {
  return evaluateGate({
    siteId: 'shop',
    sha: 'abcdef1234567890',
    head,
    baseline,
    waivers: compileWaivers([], NOW),
    settings: { ...BUILT_IN_GATE_SETTINGS, fail_on_serious: true, engine_upgrade },
    engineChanged,
  });
}

describe('which engines differ', () => {
  it('takes the same name and version for the same engine, the name regardless of case', () => {
    expect(sameEngine(NEW, { name: 'AXE-core', version: '4.14.1' })).toBe(true);
    expect(sameEngine(NEW, OLD)).toBe(false);
    expect(enginesDiffer(NEW, OLD)).toBe(true);
  });

  it('never takes an unknown engine or version, or another engine altogether, for a change', () => {
    expect(enginesDiffer(NEW, null)).toBe(false);
    expect(enginesDiffer(undefined, OLD)).toBe(false);
    expect(enginesDiffer(NEW, { name: 'axe-core', version: null })).toBe(false);
    expect(enginesDiffer(NEW, { name: 'in-house-checker', version: '2.1.0' })).toBe(false);
  });
});

describe('the gate under an engine change', () => {
  // One issue both engines report, one only the new engine reports (a rule it added), one only the old
  // engine reported (a rule it dropped).
  const both = () => [issue('shared'), issue('added')];
  const base = () => [issue('shared'), issue('dropped', 'moderate', 'landmark-complementary-is-top-level')];

  it('without an engine change, the differences are new and fixed issues and fail the gate', () => {
    const r = gate(both(), base(), false);
    expect(r.passed).toBe(false);
    expect(r.counts).toMatchObject({ new: 1, existing: 1, fixed: 1 });
    expect(r.engineChange).toBeNull();
    expect(r.engineChangedIssues).toEqual([]);
  });

  it('with `engine_upgrade: warn` (the default), counts them apart, lists them and passes', () => {
    const r = gate(both(), base(), true);
    expect(r.passed).toBe(true);
    expect(r.reasons).toEqual([]);
    expect(r.counts).toMatchObject({ new: 0, existing: 1, fixed: 0 });
    expect(r.counts.byImpact.serious.new).toBe(0);
    expect(r.counts.byImpact.moderate.fixed).toBe(0);
    expect(r.engineChange).toEqual({ appeared: 1, disappeared: 1, byImpact: { serious: 1, moderate: 1 } });
    expect(r.engineChangedIssues.map((i) => i.fingerprint)).toEqual(['added']);
    expect(r.newIssues).toEqual([]);
    expect(r.thresholds.find((t) => t.name === 'fail_on_serious')).toMatchObject({ actual: 0, passed: true });
  });

  it('with `engine_upgrade: fail`, judges them as new and fixed issues (and still lists them apart)', () => {
    const r = gate(both(), base(), true, 'fail');
    expect(r.passed).toBe(false);
    expect(r.reasons.map((x) => x.code)).toEqual(['serious_issues']);
    expect(r.counts).toMatchObject({ new: 1, existing: 1, fixed: 1 });
    expect(r.engineChange).toEqual({ appeared: 1, disappeared: 1, byImpact: { serious: 1, moderate: 1 } });
    expect(r.newIssues.map((i) => i.fingerprint)).toEqual(['added']);
    expect(r.engineChangedIssues.map((i) => i.fingerprint)).toEqual(['added']);
  });

  it('keeps paired issues existing: an engine change never hides what both engines report', () => {
    const r = gate([issue('shared', 'critical')], [issue('shared', 'critical')], true);
    expect(r.counts).toMatchObject({ new: 0, existing: 1, fixed: 0 });
    expect(r.engineChange).toEqual({ appeared: 0, disappeared: 0, byImpact: {} });
  });

  it('takes `engine_upgrade` from the request, then the site, then `warn`', () => {
    expect(resolveGateSettings(undefined, undefined).engine_upgrade).toBe('warn');
    expect(resolveGateSettings(undefined, { engine_upgrade: 'fail' }).engine_upgrade).toBe('fail');
    expect(resolveGateSettings({ engine_upgrade: 'warn' }, { engine_upgrade: 'fail' }).engine_upgrade).toBe(
      'warn',
    );
  });
});

describe('the baseline under an engine change', () => {
  const scan = (id: string, engine: ScanEngine | null, branch = 'main'): ScanRef => ({
    id,
    sha: `${id}0000`,
    branch,
    createdAt: NOW,
    fingerprintVersion: 3,
    engine,
  });

  it('says when a later base-branch scan was passed over for one made with the same engine', () => {
    const b = describeBaseline({
      head: scan('head', OLD, 'feature'),
      baseBranch: 'main',
      scan: scan('older', OLD),
      passedOver: scan('newer', NEW),
    });
    expect(b.strategy).toBe('base_branch');
    expect(b.engineChanged).toBeUndefined();
    expect(b.reason).toContain('same engine');
    expect(b.reason).toContain('axe-core 4.10.3');
    expect(b.reason).toContain('axe-core 4.14.1');
  });

  it('marks an engine change when the baseline was made with another engine, and names both', () => {
    const b = describeBaseline({
      head: scan('head', NEW, 'feature'),
      baseBranch: 'main',
      scan: scan('b', OLD),
    });
    expect(b.engineChanged).toBe(true);
    expect(b.reason).toMatch(/axe-core 4\.10\.3 and this commit's scan with axe-core 4\.14\.1/);
  });

  it('marks none when an engine is unknown or the same', () => {
    const same = describeBaseline({ head: scan('h', NEW, 'f'), baseBranch: 'main', scan: scan('b', NEW) });
    const unknown = describeBaseline({
      head: scan('h', NEW, 'f'),
      baseBranch: 'main',
      scan: scan('b', null),
    });
    expect(same.engineChanged).toBeUndefined();
    expect(unknown.engineChanged).toBeUndefined();
  });

  it('words the change for people with both versions and the policy', () => {
    const text = engineChangeSentence({
      head: NEW,
      baseline: OLD,
      engine_upgrade: 'warn',
      appeared: 2,
      disappeared: 1,
    });
    expect(text).toBe(
      'The engine changed from axe-core 4.10.3 (baseline) to axe-core 4.14.1 (this commit): 3 issues differ ' +
        "(2 only in this commit's scan, 1 only in the baseline's); they are counted apart and fail nothing " +
        '(engine_upgrade: warn).',
    );
  });
});
