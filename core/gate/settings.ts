import type { Impact } from '../impact.js';
import type { EngineUpgradePolicy } from './engine.js';

/**
 * The deploy gate's thresholds (docs/gate.md): what an issue's impact and kind are, and which
 * thresholds apply after the request, the site's settings and the built-in defaults. Pure.
 */

export type ImpactKey = Impact | 'unknown';

export const THRESHOLD_NAMES = [
  'max_critical',
  'max_serious',
  'max_moderate',
  'max_minor',
  'max_total',
] as const;
export type ThresholdName = (typeof THRESHOLD_NAMES)[number];

/** Thresholds after every fallback: what the gate actually applied (stored with the event). */
export interface AppliedGateSettings {
  fail_on_critical: boolean;
  fail_on_serious: boolean;
  max_critical: number | null;
  max_serious: number | null;
  max_moderate: number | null;
  max_minor: number | null;
  max_total: number | null;
  new_only: boolean;
  include_incomplete: boolean;
  /** Whether issues that differ only because the engine changed are judged (`fail`) or counted apart. */
  engine_upgrade: EngineUpgradePolicy;
}

export type GateSettingsLayer = { [K in keyof AppliedGateSettings]?: AppliedGateSettings[K] | null };

export const BUILT_IN_GATE_SETTINGS: AppliedGateSettings = {
  fail_on_critical: true,
  fail_on_serious: false,
  max_critical: null,
  max_serious: null,
  max_moderate: null,
  max_minor: null,
  max_total: null,
  new_only: true,
  include_incomplete: false,
  engine_upgrade: 'warn',
};

/**
 * Request, then the site's `gate` defaults, then the built-in defaults. A field the request leaves
 * out falls through; a `max_*` the request sets to `null` is deliberately "not checked", even when
 * the site has a limit. A boolean set to null falls through (null is not a yes/no).
 */
export function resolveGateSettings(
  request: GateSettingsLayer | undefined,
  site: GateSettingsLayer | null | undefined,
): AppliedGateSettings {
  const out = { ...BUILT_IN_GATE_SETTINGS } as Record<keyof AppliedGateSettings, unknown>;
  for (const name of Object.keys(BUILT_IN_GATE_SETTINGS) as (keyof AppliedGateSettings)[]) {
    const isLimit = (THRESHOLD_NAMES as readonly string[]).includes(name);
    for (const layer of [request, site]) {
      const v = layer?.[name];
      if (v === undefined || (v === null && !isLimit)) continue;
      out[name] = v;
      break;
    }
  }
  return out as unknown as AppliedGateSettings;
}
