import type { AccessibilityStatement } from '../../domain/statement/statement.js';
import { renderEaaServiceInformation } from '../../domain/statement/render/eaa.js';
import { renderStatementHtml } from '../../domain/statement/render/html.js';
import { renderStatementMarkdown } from '../../domain/statement/render/md.js';

export type StatementFormat = 'json' | 'html' | 'md' | 'eaa';

const EXPORTS: Record<StatementFormat, { type: string; render: (s: AccessibilityStatement) => string }> = {
  json: { type: 'application/json; charset=utf-8', render: (s) => `${JSON.stringify(s, null, 2)}\n` },
  html: { type: 'text/html; charset=utf-8', render: renderStatementHtml },
  md: { type: 'text/markdown; charset=utf-8', render: renderStatementMarkdown },
  eaa: { type: 'text/html; charset=utf-8', render: renderEaaServiceInformation },
};

/** A statement in one of its formats, as the API and the console's downloads answer it. */
export function exportStatement(
  s: AccessibilityStatement,
  format: StatementFormat,
): { contentType: string; body: string } {
  const { type, render } = EXPORTS[format];
  return { contentType: type, body: render(s) };
}
