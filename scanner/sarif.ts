import type { Finding } from './findings.js';

/**
 * SARIF 2.1.0 for GitHub code scanning: one result per element, with the page URL and the selector (a
 * logical location and properties). Code scanning needs a physical location that is a repository path and
 * refuses URLs, so a result's file is the one `source` names when a caller knows which file renders the
 * page, else the page's host and path written as a path (`127.0.0.1_8080/cart`, query left out).
 */
export interface SarifOptions {
  toolVersion: string;
  /** Repository-relative file that renders a page URL, when known. */
  source?: (pageUrl: string) => { path: string; line?: number } | null;
}

const LEVEL: Record<string, 'error' | 'warning' | 'note'> = {
  critical: 'error',
  serious: 'error',
  moderate: 'warning',
  minor: 'note',
};

export function pagePath(pageUrl: string): string {
  const u = new URL(pageUrl);
  const path = u.pathname === '/' ? '/index' : u.pathname.replace(/\/+$/, '');
  return `${u.hostname}${u.port ? `_${u.port}` : ''}${path}`;
}

export function toSarif(findings: Finding[], options: SarifOptions): Record<string, unknown> {
  const ruleIds = [...new Set(findings.map((f) => f.rule))].sort();
  const rules = ruleIds.map((id) => {
    const f = findings.find((x) => x.rule === id) as Finding;
    return { id, shortDescription: { text: id }, helpUri: f.helpUrl, properties: { tags: f.tags } };
  });
  const results = findings.map((f) => {
    const source = options.source?.(f.pageUrl) ?? null;
    const location: Record<string, unknown> = {
      logicalLocations: [
        { name: f.selector, fullyQualifiedName: `${f.pageUrl} ${f.selector}`, kind: 'element' },
      ],
    };
    location.physicalLocation = source
      ? {
          artifactLocation: { uri: source.path },
          ...(source.line ? { region: { startLine: source.line } } : {}),
        }
      : { artifactLocation: { uri: pagePath(f.pageUrl) } };
    return {
      ruleId: f.rule,
      ruleIndex: ruleIds.indexOf(f.rule),
      level: f.kind === 'incomplete' ? 'note' : (LEVEL[f.impact ?? ''] ?? 'warning'),
      message: { text: `${f.message}\nPage: ${f.pageUrl}\nElement: ${f.selector}` },
      locations: [location],
      partialFingerprints: { 'a11yGate/v1': `${f.rule}|${new URL(f.pageUrl).pathname}|${f.selector}` },
      properties: { pageUrl: f.pageUrl, selector: f.selector, impact: f.impact, kind: f.kind, html: f.html },
    };
  });
  return {
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
      },
    ],
  };
}
