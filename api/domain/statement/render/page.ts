import { escapeHtml } from '../../vpat/render/html.js';
import type { StatementAnswers } from '../statement.js';

/**
 * The self-contained page both HTML documents of a statement are written in (the statement, and the EAA's
 * service information): language, title, a style sheet of its own for light and dark colour schemes and
 * narrow screens, no script and no external resource. Pure.
 */

// Text meets 4.5:1 and borders 3:1 against the background in both schemes.
const STYLE = `:root { color-scheme: light dark; --text: #1a1a1a; --bg: #ffffff; --link: #0645ad; --line: #595959; --muted-bg: #f1f1f1; }
@media (prefers-color-scheme: dark) { :root { --text: #f2f2f2; --bg: #121212; --link: #9cc3ff; --line: #9a9a9a; --muted-bg: #1f1f1f; } }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); background: var(--bg); margin: 0 auto; max-width: 48rem; padding: 1rem; overflow-wrap: anywhere; }
h1 { font-size: 1.75rem; line-height: 1.25; } h2 { font-size: 1.35rem; margin-top: 2rem; } h3 { font-size: 1.1rem; margin-top: 1.5rem; }
a { color: var(--link); text-decoration: underline; }
a:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
.status { border: 2px solid var(--line); padding: 0.5rem 0.75rem; }
.missing { border-left: 4px solid var(--line); background: var(--muted-bg); padding: 0.25rem 0.75rem; }
ul.items > li { margin-bottom: 0.75rem; }
ul.items > li p { margin: 0.25rem 0; }
dt { font-weight: 600; } dd { margin: 0 0 0.5rem 1rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
@media print { body { max-width: none; padding: 0; font-size: 11pt; } a { color: inherit; } }
`;

/** A document: `body` is markup already escaped by the caller. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>
${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** A link to an http(s) address, an e-mail address or a phone number; the address is its text. */
export function htmlLink(kind: 'url' | 'email' | 'phone', value: string): string {
  const href =
    kind === 'email'
      ? `mailto:${value}`
      : kind === 'phone'
        ? `tel:${value.replace(/[^+\d]/g, '')}`
        : /^https?:\/\//i.test(value)
          ? value
          : undefined;
  return href ? `<a href="${escapeHtml(href)}">${escapeHtml(value)}</a>` : escapeHtml(value);
}

export const paragraph = (text: string): string => `<p>${escapeHtml(text)}</p>`;

export function section(id: string, heading: string, body: string): string {
  return `<section aria-labelledby="h-${id}"><h2 id="h-${id}">${escapeHtml(heading)}</h2>\n${body}\n</section>`;
}

/** How people reach the entity, each way a link. */
export function htmlContactWays(a: StatementAnswers): string[] {
  return [
    a.contact_email ? `E-mail: ${htmlLink('email', a.contact_email)}` : null,
    a.contact_phone ? `Phone: ${htmlLink('phone', a.contact_phone)}` : null,
    a.contact_url ? `Web: ${htmlLink('url', a.contact_url)}` : null,
  ].filter((x): x is string => x !== null);
}
