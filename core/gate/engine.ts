/**
 * Engine upgrades (docs/gate.md#engine-upgrades): two scans made with different versions of the
 * accessibility engine report differently (new rules, changed checks, other selectors), so the issues that
 * differ between them say nothing about the commit. Pure: which engines differ and how that is worded.
 */

export interface ScanEngine {
  name: string;
  version: string | null;
}

/** What the gate does with issues that differ only because the engine changed. */
export const ENGINE_UPGRADE_POLICIES = ['warn', 'fail'] as const;
export type EngineUpgradePolicy = (typeof ENGINE_UPGRADE_POLICIES)[number];

/** The engine change a deploy event records: both engines, the policy applied and the issues that differ. */
export interface EngineChange {
  head: ScanEngine;
  baseline: ScanEngine;
  engine_upgrade: EngineUpgradePolicy;
  /** Head issues no baseline issue is (new-looking). */
  appeared: number;
  /** Baseline issues no head issue is (fixed-looking). */
  disappeared: number;
}

/** The same engine: both known, the same name (case aside) and the same version. */
export function sameEngine(a: ScanEngine | null | undefined, b: ScanEngine | null | undefined): boolean {
  if (!a || !b) return false;
  return a.name.toLowerCase() === b.name.toLowerCase() && (a.version ?? '') === (b.version ?? '');
}

/**
 * Whether two scans were made with different versions of the same engine (an upgrade, or a step back).
 * An unknown engine or version on either side is never taken for one: nothing shows it. Another engine
 * altogether is not one either: its rules are its own, and its issues are judged as any others.
 */
export function enginesDiffer(
  head: ScanEngine | null | undefined,
  baseline: ScanEngine | null | undefined,
): boolean {
  if (!head?.version || !baseline?.version) return false;
  return head.name.toLowerCase() === baseline.name.toLowerCase() && head.version !== baseline.version;
}

/** "axe-core 4.14.1" */
export function engineLabel(engine: ScanEngine): string {
  return engine.version ? `${engine.name} ${engine.version}` : engine.name;
}

/** One sentence for people: what changed, how many issues differ, and what the gate did with them. */
export function engineChangeSentence(change: EngineChange): string {
  const n = change.appeared + change.disappeared;
  const issues = `${n} ${n === 1 ? 'issue differs' : 'issues differ'}`;
  const detail = `${change.appeared} only in this commit's scan, ${change.disappeared} only in the baseline's`;
  const verdict =
    change.engine_upgrade === 'fail'
      ? 'they are judged as new and fixed issues (engine_upgrade: fail)'
      : 'they are counted apart and fail nothing (engine_upgrade: warn)';
  return (
    `The engine changed from ${engineLabel(change.baseline)} (baseline) to ${engineLabel(change.head)} ` +
    `(this commit): ${issues} (${detail}); ${verdict}.`
  );
}
