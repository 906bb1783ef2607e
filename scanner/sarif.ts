import { criteriaFromAxeTags } from '../core/scans/wcag-tags.js';
import type * as Sarif from 'sarif';
import { issueFingerprint } from '../core/matching/fingerprint.js';
import { normalizeUrl, pageKey } from '../core/url-normalisation.js';
import type { Finding } from './findings.js';
import { atViewport } from '../core/text/wording.js';
import { fixSteps } from '../core/gate/finding-text.js';

/**
 * SARIF 2.1.0 for GitHub code scanning. Code scanning keeps a result only with a physical location in the
 * repository (a relative path and a start line), so only located findings are results; the others are
 * counted in `runs[0].properties` (and the job summary says how many). Each result's partialFingerprints is
 * the service's issue fingerprint (rule, page path, normalised selector): an alert keeps its identity
 * across runs, preview hosts and line moves.
 */
export interface SarifOptions {
  toolVersion: string;
}

export interface SarifReport {
  log: Sarif.Log;
  located: number;
  unlocated: number;
}

const LEVEL: Record<string, Sarif.Result.level> = {
  critical: 'error',
  serious: 'error',
  moderate: 'warning',
  minor: 'note',
};

/** WCAG criteria from axe's tags (`wcag143` → `WCAG 1.4.3`), beside the tags themselves. */
function ruleTags(tags: string[]): string[] {
  return ['accessibility', ...criteriaFromAxeTags(tags).map((c) => `WCAG ${c}`), ...tags];
}

function rule(f: Finding): Sarif.ReportingDescriptor {
  const fix = fixSteps(f.message);
  const text = [f.description || f.help, '', ...fix.map((s) => `- ${s}`), '', f.helpUrl].join('\n');
  return {
    id: f.rule,
    name: f.rule,
    shortDescription: { text: f.help || f.rule },
    fullDescription: { text: f.description || f.help || f.rule },
    help: {
      text,
      markdown: `${f.description || f.help}\n\n[How to fix \`${f.rule}\` (Deque University)](${f.helpUrl})`,
    },
    helpUri: f.helpUrl,
    properties: { tags: ruleTags(f.tags) },
  };
}

/** The service's fingerprint of a finding: rule, page path (and viewport, when one was named), selector. */
export function fingerprintOf(f: Finding): string {
  const normalized = normalizeUrl(f.pageUrl) ?? f.pageUrl;
  return issueFingerprint({
    rule: f.rule,
    pageKey: pageKey(normalized),
    selector: f.selector || null,
    viewport: f.viewport ?? null,
  });
}

function result(f: Finding, ruleIndex: number): Sarif.Result {
  const source = f.source!;
  const fix = fixSteps(f.message);
  return {
    ruleId: f.rule,
    ruleIndex,
    level: f.kind === 'incomplete' ? 'note' : (LEVEL[f.impact ?? ''] ?? 'warning'),
    message: {
      text: [
        `${f.help || f.rule}: ${fix[0] ?? f.message}`,
        `Element: ${f.html}`,
        `Page: ${atViewport(f.pageUrl, f.viewport)}`,
      ].join('\n'),
    },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: source.path, uriBaseId: '%SRCROOT%' },
          region: { startLine: source.line, ...(source.column ? { startColumn: source.column } : {}) },
        },
        logicalLocations: [
          {
            name: f.selector,
            fullyQualifiedName: `${atViewport(f.pageUrl, f.viewport)} ${f.selector}`,
            kind: 'element',
          },
        ],
      },
    ],
    partialFingerprints: { 'a11yGate/v1': fingerprintOf(f) },
    properties: {
      pageUrl: f.pageUrl,
      ...(f.viewport ? { viewport: f.viewport } : {}),
      selector: f.selector,
      impact: f.impact,
      kind: f.kind,
      locatedBy: source.method,
    },
  };
}

export function toSarif(findings: Finding[], options: SarifOptions): SarifReport {
  const located = findings.filter((f) => f.source);
  const ruleIds = [...new Set(located.map((f) => f.rule))].sort();
  const rules = ruleIds.map((id) => rule(located.find((f) => f.rule === id) as Finding));
  const results = located.map((f) => result(f, ruleIds.indexOf(f.rule)));
  const unlocated = findings.length - located.length;
  const log: Sarif.Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'a11y-gate',
            version: options.toolVersion,
            rules,
          },
        },
        results,
        properties: {
          findings: findings.length,
          located: located.length,
          // Code scanning refuses results without a file and line: these are in the scan, not here.
          unlocated,
        },
      },
    ],
  };
  return { log, located: located.length, unlocated };
}
