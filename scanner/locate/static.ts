import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { selectAll } from 'css-select';
import type { Document, Element } from 'domhandler';
import { parse, parseFragment } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';
import type { RawLocation } from './attributes.js';

/**
 * Pages that are files of the repository: found by a URL prefix mapped to a folder (`source-map`), else by
 * their HTML response being byte-identical to exactly one file under the source root. The element is then
 * looked up in the file, parsed with source positions, by the selector axe-core reported, and kept only when
 * the selector finds exactly one element whose start tag (name and attributes) equals the live element's:
 * a DOM changed by scripts gives no location rather than a wrong one.
 */

export interface SourceMapping {
  /** An absolute URL prefix, or a path prefix starting with `/`. */
  prefix: string;
  /** A folder relative to the source root. */
  dir: string;
}

/** Folders never indexed: dependencies and the repository's own store. */
const SKIPPED = new Set(['node_modules', '.git']);

function walk(dir: string, bySize: Map<number, string[]>): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIPPED.has(e.name)) walk(full, bySize);
    } else if (e.isFile()) {
      const size = fs.statSync(full).size;
      const list = bySize.get(size);
      if (list) list.push(full);
      else bySize.set(size, [full]);
    }
  }
}

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

export class StaticFiles {
  private bySize: Map<number, string[]> | null = null;
  private readonly hashes = new Map<string, string>();
  private readonly documents = new Map<string, Document>();

  constructor(
    private readonly root: string,
    private readonly mappings: SourceMapping[],
  ) {}

  /** Every file under the root (dependencies and .git left out), indexed once by size. */
  private index(): Map<number, string[]> {
    if (!this.bySize) {
      this.bySize = new Map();
      walk(this.root, this.bySize);
    }
    return this.bySize;
  }

  /**
   * The one file whose path ends with `rel` (at a folder boundary): a build that writes paths relative to
   * its own folder, inside a repository that holds it deeper. Several: none (which one is a guess).
   */
  onlyFileEndingWith(rel: string): string | null {
    const tail = path.sep + path.normalize(rel);
    const found: string[] = [];
    for (const files of this.index().values()) {
      for (const f of files) if (f.endsWith(tail)) found.push(f);
    }
    return found.length === 1 ? found[0] : null;
  }

  /** The repository file that serves a page, or null when none does without doubt. */
  fileFor(url: string, body: Buffer | null): string | null {
    return this.mapped(url) ?? (body ? this.byContent(body) : null);
  }

  private mapped(url: string): string | null {
    const u = new URL(url);
    for (const m of this.mappings) {
      const rest = m.prefix.startsWith('/')
        ? u.pathname.startsWith(m.prefix)
          ? u.pathname.slice(m.prefix.length)
          : null
        : `${u.origin}${u.pathname}`.startsWith(m.prefix)
          ? `${u.origin}${u.pathname}`.slice(m.prefix.length)
          : null;
      if (rest === null) continue;
      const dir = path.resolve(this.root, m.dir);
      let rel: string;
      try {
        rel = decodeURIComponent(rest).replace(/^\/+/, '');
      } catch {
        return null;
      }
      const candidates =
        rel === '' || rel.endsWith('/') ? [`${rel}index.html`] : [rel, `${rel}.html`, `${rel}/index.html`];
      for (const c of candidates) {
        const file = path.resolve(dir, c);
        if (!file.startsWith(dir + path.sep)) return null;
        if (isFile(file)) return file;
      }
      return null;
    }
    return null;
  }

  private byContent(body: Buffer): string | null {
    const same = this.index().get(body.length) ?? [];
    if (same.length === 0) return null;
    const want = sha256(body);
    const found = same.filter((file) => {
      let h = this.hashes.get(file);
      if (h === undefined) {
        h = sha256(fs.readFileSync(file));
        this.hashes.set(file, h);
      }
      return h === want;
    });
    // Two identical files: which one is the page's is a guess, and a guess is not given.
    return found.length === 1 ? found[0] : null;
  }

  /** The element's start tag in the file, when the selector finds it there without doubt. */
  locate(file: string, selector: string, liveHtml: string | null | undefined): RawLocation | null {
    if (!liveHtml) return null;
    const doc = this.document(file);
    let matches: Element[];
    try {
      matches = selectAll<Document | Element, Element>(selector, doc);
    } catch {
      return null; // a selector css-select does not read: no guess
    }
    if (matches.length !== 1) return null;
    const el = matches[0];
    // An element the parser implied (no `<html>` in the file) has no start tag, so no place.
    const start = el.sourceCodeLocation?.startTag;
    if (!start || !sameStartTag(el, liveHtml)) return null;
    return { path: file, line: start.startLine, column: start.startCol };
  }

  private document(file: string): Document {
    let doc = this.documents.get(file);
    if (!doc) {
      doc = parse(fs.readFileSync(file, 'utf8'), { treeAdapter: adapter, sourceCodeLocationInfo: true });
      this.documents.set(file, doc);
    }
    return doc;
  }
}

const DOCUMENT_TAGS = new Set(['html', 'head', 'body']);

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The live element's start tag (axe's `html`, parsed the same way) equals the file's: same name and attributes. */
function sameStartTag(el: Element, liveHtml: string): boolean {
  const m = /^\s*<([a-zA-Z][^\s/>]*)/.exec(liveHtml);
  if (!m || m[1].toLowerCase() !== el.name) return false;
  // A fragment drops html, head and body tags: their attributes are read from the same tag renamed.
  const html = DOCUMENT_TAGS.has(el.name) ? `<div${liveHtml.slice(m[0].length)}` : liveHtml;
  const fragment = parseFragment(html, { treeAdapter: adapter });
  const live = fragment.children.find((c): c is Element => 'attribs' in c);
  if (!live) return false;
  const a = Object.entries(live.attribs).sort();
  const b = Object.entries(el.attribs).sort();
  return a.length === b.length && a.every(([k, v], i) => k === b[i][0] && v === b[i][1]);
}
