import type { Page } from 'playwright-core';

/**
 * Dev-build attributes that say which source line rendered an element, read in the page after axe-core ran.
 * Each build plugin writes its own form; all are read from the element or its nearest ancestor that has one
 * (a text node's parent, an element a library created at run time inside a located component).
 *
 * - `data-insp-path` (code-inspector-plugin): `path:line:column:tag`, an absolute path.
 * - `data-v-inspector` (vite-plugin-vue-inspector 6.x with `cleanHtml: false`): `path:line:column`, the
 *   path relative to the dev server's folder and URI-encoded.
 * - `data-inspector-relative-path` + `-line` + `-column` (react-dev-inspector).
 * - `data-source-path` (SWC JSX plugins): `path:line[:column]`.
 * - Svelte's dev mode: the element's `__svelte_meta.loc` property, `{file, line, column}` (Svelte 4 counts
 *   lines from 0 and adds `char`; Svelte 5 from 1; both count columns from 0).
 * - A team's own attribute (`source-attribute`): `path:line[:column]`.
 */
export interface RawLocation {
  path: string;
  line: number;
  column: number | null;
}

/** What the page gives for one node: the attribute's kind and its text, or Svelte's numbers. */
export type PageMark =
  | { kind: 'text'; value: string }
  | { kind: 'parts'; path: string; line: string; column: string | null }
  | { kind: 'svelte'; file: string; line: number; column: number; zeroBased: boolean }
  | null;

const PATH_LINE_COLUMN = /^([^:].*?):(\d+)(?::(\d+))?$/;

/** `path:line[:column]` with an optional trailing `:tag` (code-inspector-plugin). */
export function parsePathLine(value: string, withTag = false): RawLocation | null {
  const text = withTag ? value.replace(/:[A-Za-z][\w.-]*$/, '') : value;
  const m = PATH_LINE_COLUMN.exec(text.trim());
  if (!m) return null;
  const line = Number(m[2]);
  const column = m[3] === undefined ? null : Number(m[3]);
  if (!Number.isSafeInteger(line) || line < 1) return null;
  return { path: m[1], line, column: column !== null && column >= 1 ? column : null };
}

function decodedPath(text: string): string | null {
  try {
    return decodeURI(text);
  } catch {
    return null;
  }
}

/** A page mark as a location in the build's own terms (a path not yet checked against the source root). */
export function markLocation(mark: PageMark): RawLocation | null {
  if (!mark) return null;
  if (mark.kind === 'svelte') {
    const line = mark.zeroBased ? mark.line + 1 : mark.line;
    if (!mark.file || !Number.isSafeInteger(line) || line < 1) return null;
    return { path: mark.file, line, column: Number.isSafeInteger(mark.column) ? mark.column + 1 : null };
  }
  if (mark.kind === 'parts') {
    if (!/^\d+$/.test(mark.line)) return null;
    const column = mark.column && /^\d+$/.test(mark.column) ? Number(mark.column) : null;
    const line = Number(mark.line);
    return line >= 1 ? { path: mark.path, line, column: column && column >= 1 ? column : null } : null;
  }
  const [name, value] = splitMark(mark.value);
  const parsed = parsePathLine(value, name === 'data-insp-path');
  if (!parsed) return null;
  const path = name === 'data-v-inspector' ? decodedPath(parsed.path) : parsed.path;
  return path ? { ...parsed, path } : null;
}

/** Text marks are sent as `name=value`, so the reading knows which plugin wrote them. */
function splitMark(text: string): [string, string] {
  const eq = text.indexOf('=');
  return [text.slice(0, eq), text.slice(eq + 1)];
}

/**
 * For each axe target (top-level document and shadow roots; not inside frames), the nearest mark, read in
 * the page. Runs as one evaluation for all the page's nodes.
 */
/**
 * Runs in the page, as plain JavaScript text: a function handed to Playwright would carry whatever helpers
 * the TypeScript runner or bundler adds around named functions, which the page does not have.
 */
const PAGE_MARKS = `({ targets, custom }) => {
  const names = [...(custom ? [custom] : []), 'data-insp-path', 'data-v-inspector', 'data-source-path'];
  function find(target) {
    if (target.length !== 1) return null; // inside a frame: another document
    const path = typeof target[0] === 'string' ? [target[0]] : target[0];
    let el = document.querySelector(path[0]);
    for (const selector of path.slice(1)) {
      if (!el || !el.shadowRoot) return null;
      el = el.shadowRoot.querySelector(selector);
    }
    return el;
  }
  // An element in a shadow root continues at its host.
  function up(el) {
    if (el.parentElement) return el.parentElement;
    const root = el.parentNode;
    return root && root.host ? root.host : null;
  }
  function mark(start) {
    for (let el = start; el; el = up(el)) {
      for (const name of names) {
        const value = el.getAttribute(name);
        if (value) return { kind: 'text', value: name + '=' + value };
      }
      const rel = el.getAttribute('data-inspector-relative-path');
      if (rel) {
        return {
          kind: 'parts',
          path: rel,
          line: el.getAttribute('data-inspector-line') || '',
          column: el.getAttribute('data-inspector-column'),
        };
      }
      const loc = el.__svelte_meta && el.__svelte_meta.loc;
      if (loc && typeof loc.file === 'string' && typeof loc.line === 'number') {
        const column = typeof loc.column === 'number' ? loc.column : NaN;
        return { kind: 'svelte', file: loc.file, line: loc.line, column, zeroBased: 'char' in loc };
      }
    }
    return null;
  }
  return targets.map((t) => mark(find(t)));
}`;

export async function readPageMarks(
  page: Page,
  targets: Array<Array<string | string[]>>,
  customAttribute: string | null,
): Promise<PageMark[]> {
  const args = JSON.stringify({ targets, custom: customAttribute });
  return page.evaluate<PageMark[]>(`(${PAGE_MARKS})(${args})`);
}
