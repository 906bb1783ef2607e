import type { Finding } from './findings.js';
import type { PageOutcome } from './page-scan.js';
import { fingerprintOf } from './sarif.js';
import { atViewport } from '../core/text/wording.js';

/**
 * What JUnit needs of the gate's answer (a deploy event, or the gate without a service): its verdict, the
 * new issues' fingerprints, and its reasons (whether it recorded the baseline, and why it failed).
 */
export interface JunitGate {
  passed: boolean;
  new_issues: Array<{ fingerprint: string }>;
  reasons?: Array<{ code: string; message?: string }>;
}

/**
 * JUnit XML for CI systems that show test reports (GitLab merge request widgets, Jenkins, CircleCI): one
 * test suite, one test case per page. A page with violations fails (one <failure> listing each element), a
 * page that could not be scanned is an <error>; `incomplete` findings (a person must check) do not fail.
 * With a gate, JUnit agrees with its verdict: a page fails only for its new issues, and only when the gate
 * failed. The debt a page already had, and new issues a passed gate allowed, are reported in its
 * <system-out>. A failed gate with no page to blame (thresholds on existing issues) fails one more test case,
 * "deploy gate", with the gate's reasons; the run that records the baseline fails nothing. A page scanned at
 * several viewports is one test case per viewport, named `URL (viewport)`.
 */
function xml(text: string): string {
  return (
    text
      // XML 1.0 cannot hold these control characters at all, not even escaped.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

export function toJunit(
  pages: PageOutcome[],
  findings: Finding[],
  seconds: number,
  gate?: JunitGate,
): string {
  const isNew = gate ? newMatcher(gate) : () => true;
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  for (const page of pages) {
    const name = xml(atViewport(page.url, page.viewport));
    if (!page.ok) {
      errors++;
      const status = page.status ? ` (HTTP ${page.status})` : '';
      cases.push(
        `  <testcase classname="a11y-gate" name="${name}"><error message="${xml(page.error + status)}"/></testcase>`,
      );
      continue;
    }
    const all = findings.filter(
      (f) => f.pageUrl === page.url && f.viewport === page.viewport && f.kind === 'violation',
    );
    const fresh = all.filter(isNew);
    // A passed gate fails no page: the new issues it allowed are told, as the debt is.
    const own = gate?.passed ? [] : fresh;
    const notes = [
      ...(all.length > fresh.length
        ? [`${all.length - fresh.length} existing violations (in the baseline, not failed)`]
        : []),
      ...(own.length < fresh.length
        ? [`${fresh.length} new violations within the gate's thresholds (not failed)`]
        : []),
    ];
    const out = notes.length > 0 ? `<system-out>${notes.join('; ')}</system-out>` : '';
    if (own.length === 0) {
      cases.push(`  <testcase classname="a11y-gate" name="${name}">${out}</testcase>`);
      continue;
    }
    failures++;
    const detail = own
      .map(
        (f) =>
          `${f.impact ?? 'unknown'} ${f.rule}: ${f.selector}\n  ${f.message.replace(/\n/g, '\n  ')}\n  ${f.helpUrl}`,
      )
      .join('\n\n');
    const rules = [...new Set(own.map((f) => f.rule))].join(', ');
    cases.push(
      `  <testcase classname="a11y-gate" name="${name}"><failure message="${own.length} ${gate ? 'new ' : ''}accessibility violations (${xml(rules)})">${xml(detail)}</failure>${out}</testcase>`,
    );
  }
  if (gate && !gate.passed && failures === 0) {
    failures++;
    const why = (gate.reasons ?? []).map((r) => r.message ?? r.code).join(' ') || 'The deploy gate failed.';
    cases.push(
      `  <testcase classname="a11y-gate" name="deploy gate"><failure message="${xml(why)}"/></testcase>`,
    );
  }
  const tests = cases.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="a11y-gate" tests="${tests}" failures="${failures}" errors="${errors}" time="${seconds.toFixed(1)}">`,
    `<testsuite name="accessibility (axe-core)" tests="${tests}" failures="${failures}" errors="${errors}" time="${seconds.toFixed(1)}">`,
    ...cases,
    '</testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function newMatcher(gate: JunitGate): (f: Finding) => boolean {
  // The base branch's first scan: its issues are the debt recorded, which the gate passes, so JUnit does too.
  if (gate.reasons?.some((r) => r.code === 'baseline_recorded')) return () => false;
  const fingerprints = new Set(gate.new_issues.map((i) => i.fingerprint));
  return (f) => fingerprints.has(fingerprintOf(f));
}
