/**
 * The one way untrusted text (anything a scanned page, a scan body or a fork's artifact says) goes into the
 * markdown GitHub renders under the App's or the workflow's name: the pull request comment, the check run's
 * summary and text, the job summary and every refusal message. Such text must show as text, never as
 * markup: no line of its own (so no heading, list, thematic break or code block), no HTML (so no `<!--`
 * hiding the rest), no link, image or mention. Pure, so the Action bundles it.
 *
 * GitHub autolinks `www.` and `http(s)://` and links `@user`, `@org/team` and `#123` in text after the
 * markdown is rendered, where a backslash no longer shows. A ZERO WIDTH SPACE (U+200B) after the `@`, the `:`
 * or the `www` breaks each pattern without changing what a reader sees: the way Dependabot and Renovate
 * quote release notes without pinging anyone. Inside a code span GitHub links nothing.
 */

/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Breaks GitHub's autolinks and mentions without a visible change (see above). */
const ZWSP = '\u200b';

/**
 * Every line terminator CommonMark or a browser knows (CR, LF, CRLF, U+2028, U+2029, U+0085, form feed,
 * vertical tab) and every other control character, each as one space; lone surrogates (which GitHub's JSON
 * may refuse) as U+FFFD.
 */
export function oneLine(text: string): string {
  return (
    text
      .replace(LONE_SURROGATE, '\ufffd')
      .replace(/\r\n/g, ' ')
      // eslint-disable-next-line no-control-regex -- control characters are what this folds
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
  );
}

/**
 * Text shown as text in markdown, anywhere on a line (a table cell too): one line, whitespace runs as one
 * space and none at the ends (as HTML shows them), every character markdown or HTML reads escaped, links and mentions inert.
 */
export function markdownText(text: string): string {
  const line = oneLine(text).replace(/ {2,}/g, ' ').trim();
  // Nothing to show still shows as something: an empty list item under a paragraph would be read as the
  // underline of a heading.
  if (line === '') return ZWSP;
  return (
    line
      // Before the escapes: a backslash would hide a pattern from these replacements, not from GitHub.
      .replace(/@(?=[\p{L}\p{N}_])/gu, `${ZWSP}@${ZWSP}`)
      .replace(/:(?=\/\/)/g, `:${ZWSP}`)
      .replace(/(www)(?=\.)/gi, `$1${ZWSP}`)
      .replace(/(#|\bGH-)(?=\d+(?![\p{L}\p{N}_]))/giu, `$1${ZWSP}`)
      // Any ASCII punctuation may carry a backslash in CommonMark. These mean something anywhere on a line
      // (emphasis, code, links, HTML, entities, tables, strikethrough, GitHub's math)…
      .replace(/[\\`*[\]<>|~$&]/g, '\\$&')
      // An underscore inside a word (`color_contrast`) can neither open nor close emphasis.
      .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
      // …these only where a line starts (heading, list, quote, thematic break, setext underline).
      .replace(/^( ?)([-+=#>])/, '$1\\$2')
      .replace(/^( ?\d{1,9})([.)])(?= |$)/, '$1\\$2')
  );
}

/**
 * Text as one inline code span: nothing inside is markup, a link or a mention, and the fence is longer than
 * any run of backticks inside, so the text cannot close it. In a GFM table a `|` ends the cell even inside a
 * code span unless escaped, so `inTable` escapes it (GitHub's table parser takes the backslash away again).
 */
export function markdownCode(text: string, options: { inTable?: boolean } = {}): string {
  let body = oneLine(text);
  if (options.inTable) body = body.replace(/\|/g, '\\|');
  if (body === '') return '` `';
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each end when both ends have one (unless all are spaces); a backtick
  // at an end needs a space between it and the fence.
  const pad = /^[` ]|[` ]$/.test(body) && /[^ ]/.test(body) ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/**
 * Text shown as plain text, in lines (a terminal, a check run's annotation, which GitHub does not render as
 * markdown): scan data may carry escape sequences that move a terminal's cursor, rewrite earlier lines or set
 * its title, so every control character but the line feed becomes a space, CRLF a line feed, and a lone
 * surrogate U+FFFD.
 */
export function plainText(text: string): string {
  return (
    text
      .replace(LONE_SURROGATE, '\ufffd')
      .replace(/\r\n/g, '\n')
      // eslint-disable-next-line no-control-regex -- control characters are what this drops
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
  );
}

/**
 * A link destination: an http(s) URL with what would end it (or a table cell) percent-encoded; anything
 * else (`javascript:`, relative) undefined, to be shown unlinked.
 */
export function linkDestination(url: string | null | undefined): string | undefined {
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  return oneLine(url).replace(/[()\s|<>`[\]"]/g, (c) =>
    c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c),
  );
}

/** The hosts of rule documentation (axe-core's and the W3C's): a finding's help link elsewhere is not linked. */
const RULE_HELP_HOSTS = ['dequeuniversity.com', 'www.deque.com', 'www.w3.org'];

/**
 * A finding's help link, when it points at known rule documentation. A scan's `help_url` is the scan's to
 * choose, and a link in the App's comment could lead anywhere under any words; these hosts are the ones
 * axe-core's own findings name.
 */
export function ruleHelpDestination(url: string | null | undefined): string | undefined {
  const destination = linkDestination(url);
  if (!destination) return undefined;
  let host: string;
  try {
    host = new URL(destination).hostname;
  } catch {
    return undefined;
  }
  return RULE_HELP_HOSTS.includes(host) ? destination : undefined;
}
