import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
type Markdown = InstanceType<typeof MarkdownIt>;
type Token = ReturnType<Markdown['parse']>[number];

/**
 * Markdown as GitHub renders it, closely enough to judge what scan data may become: CommonMark with GFM
 * tables and strikethrough, raw HTML passed through (GitHub keeps its allowed tags), and autolinks of
 * `http(s)://`, `mailto:`, e-mail addresses and `www.` (GitHub's extended autolinks; markdown-it's linkify
 * leaves `www.` out unless asked, and bare domains, which GitHub does not link, stay unlinked).
 */
export function gitHubMarkdown(): Markdown {
  const md = new MarkdownIt({ html: true, linkify: true });
  md.linkify.add('www.', {
    validate: (text: string, pos: number) =>
      /^[\w-]+(\.[\w-]+)*[^\s<]*/.exec(text.slice(pos))?.[0].length ?? 0,
    normalize: (match: { url: string }) => {
      match.url = `http://${match.url}`;
    },
  });
  return md;
}

/** What an attacker would put in a page, a rule id, a zip entry's name or a scan's message. */
export const HOSTILE_FRAGMENTS = [
  '\r',
  '\n',
  '\r\n',
  '\u2028',
  '\u2029',
  '\u0085',
  '\f',
  '\v',
  '\t',
  '\u0000',
  '\u001b[2J',
  '<!--',
  '-->',
  '---',
  '***',
  '___',
  '===',
  '# ',
  '### ✅ Accessibility gate passed',
  '> ',
  '- ',
  '+ ',
  '1. ',
  '1) ',
  '    indented',
  '`',
  '``',
  '```',
  '````',
  '~~~',
  '[x](y)',
  '[Maintainers: approved, merge now](https://evil.example/merge)',
  '![x](https://evil.example/i.png)',
  '<details><summary>s</summary>',
  '</details>',
  '<img src=x onerror=alert(1)>',
  '<a href="https://evil.example">',
  '<script>alert(1)</script>',
  '&lt;b&gt;',
  '&#60;i&#62;',
  '@user',
  '@org/team',
  ' @octocat ',
  'https://evil.example/a',
  'http://e.example',
  '<https://a.example>',
  'www.evil.example',
  'a@b.com',
  'mailto:a@b.com',
  '#123',
  'GH-12',
  '😀',
  '👍🏽',
  '\ud800',
  '\udc00',
  '|',
  '\\',
  '*',
  '_',
  '~~',
  '$x$',
  '[^1]',
  '[ ]',
  ' ',
  'x',
];

/** Hostile strings: fragments above mixed with any code units (lone surrogates included). */
export const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE_FRAGMENTS), fc.string({ unit: 'binary', maxLength: 4 })), {
    minLength: 1,
    maxLength: 10,
  })
  .map((parts) => parts.join(''));

/** Every hostile fragment at once, for the end-to-end cases. */
export const ALL_HOSTILE = HOSTILE_FRAGMENTS.join(' ');

/** The token types of markup a document may hold, whatever its text says. */
const MARKUP = [
  'html_block',
  'html_inline',
  'heading_open',
  'hr',
  'link_open',
  'image',
  'fence',
  'code_block',
  'blockquote_open',
  'table_open',
  'tr_open',
  'bullet_list_open',
  'ordered_list_open',
  'list_item_open',
  'strong_open',
  'em_open',
  's_open',
  'code_inline',
  'hardbreak',
  'softbreak',
];

/** Every token of a parsed document, inline ones included, in order. */
export function tokensOf(md: Markdown, markdown: string): Token[] {
  return flat(md.parse(markdown, {}));
}

function flat(tokens: Token[]): Token[] {
  return tokens.flatMap((t) => [t, ...(t.children ? flat(t.children) : [])]);
}

/** How many of each kind of markup the rendered document holds (and its HTML comments). */
export function markupCounts(md: Markdown, markdown: string): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(MARKUP.map((m) => [m, 0]));
  for (const t of flat(md.parse(markdown, {}))) if (t.type in counts) counts[t.type]++;
  counts['<!--'] = md.render(markdown).split('<!--').length - 1;
  return counts;
}

/** Markup in `hostile` beyond what the same document holds with plain data (`plain`): none is allowed. */
export function extraMarkup(md: Markdown, plain: string, hostile: string): string[] {
  const a = markupCounts(md, plain);
  const b = markupCounts(md, hostile);
  return Object.keys(b)
    .filter((k) => b[k] > a[k])
    .map((k) => `${k}: ${b[k]} > ${a[k]}`);
}

/**
 * What GitHub would still link in the document's plain text (outside code and links, where it links
 * nothing): mentions, issue references, URLs, `www.` and e-mail addresses.
 */
export function linkableText(md: Markdown, markdown: string): string[] {
  const found: string[] = [];
  let inLink = 0;
  for (const t of flat(md.parse(markdown, {}))) {
    if (t.type === 'link_open') inLink++;
    if (t.type === 'link_close') inLink--;
    if (t.type !== 'text' || inLink > 0) continue;
    const hit = t.content.match(
      /(^|[^\p{L}\p{N}_`])@[\p{L}\p{N}]|#\d+(?![\p{L}\p{N}_])|\bGH-\d+(?![\p{L}\p{N}_])|[a-z][a-z0-9+.-]*:\/\/|www\.|[\w.+-]@[\p{L}\p{N}]/iu,
    );
    if (hit) found.push(`${JSON.stringify(hit[0])} in ${JSON.stringify(t.content)}`);
  }
  return found;
}

/** The document's visible text (text and code), zero-width spaces removed and whitespace runs as one. */
export function visibleText(md: Markdown, markdown: string): string {
  return flat(md.parse(markdown, {}))
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join(' ')
    .replace(/\u200b/g, '')
    .replace(/\s+/g, ' ');
}
