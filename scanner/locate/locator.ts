import fs from 'node:fs';
import path from 'node:path';
import type { AxeResults, NodeResult } from 'axe-core';
import type { Page } from 'playwright-core';
import { axeTargetToSelector } from '../../core/scans/axe-target.js';
import { markLocation, readPageMarks, type RawLocation } from './attributes.js';
import { StaticFiles, type SourceMapping } from './static.js';

/** Where a finding's element comes from, as the scanner adds it to each axe node (the service's `source`). */
export interface NodeSource {
  path: string;
  line: number;
  column: number | null;
  method: 'attribute' | 'static';
}

export type LocatedNode = NodeResult & { source?: NodeSource };

export interface LocateSettings {
  /** The repository's root: every location is a path relative to it. */
  sourceRoot: string;
  sourceMaps: SourceMapping[];
  /** A team's own `path:line[:column]` attribute, read before the plugins' ones. */
  sourceAttribute: string | null;
}

/**
 * Finds each finding's place in the repository (attributes first, then the page as a static file) and
 * writes it on the axe node as `source`. One locator per scan: the source root's file index and parsed
 * files are shared by its pages.
 */
/** The source root is not a folder: a setup mistake, reported as such. */
export class SourceRootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceRootError';
  }
}

export class SourceLocator {
  private readonly root: string;
  private readonly files: StaticFiles;
  private readonly exists = new Map<string, string | null>();

  constructor(private readonly settings: LocateSettings) {
    try {
      this.root = fs.realpathSync(settings.sourceRoot);
      if (!fs.statSync(this.root).isDirectory()) throw new Error('not a folder');
    } catch {
      throw new SourceRootError(`source-root "${settings.sourceRoot}" is not a folder`);
    }
    this.files = new StaticFiles(this.root, settings.sourceMaps);
  }

  async locate(page: Page, url: string, axe: AxeResults, body: Buffer | null): Promise<void> {
    const nodes: LocatedNode[] = [...axe.violations, ...axe.incomplete].flatMap((r) => r.nodes);
    if (nodes.length === 0) return;
    const targets = nodes.map((n) => n.target as unknown as Array<string | string[]>);
    const marks = await readPageMarks(page, targets, this.settings.sourceAttribute);
    let file: string | null | undefined;
    nodes.forEach((node, i) => {
      const fromMark = this.inRoot(markLocation(marks[i]));
      if (fromMark) {
        node.source = { ...fromMark, method: 'attribute' };
        return;
      }
      // A static file holds top-level elements only (not those in frames or shadow roots).
      if (targets[i].length !== 1 || typeof targets[i][0] !== 'string') return;
      if (file === undefined) file = this.files.fileFor(url, body);
      if (!file) return;
      const found = this.inRoot(this.files.locate(file, axeTargetToSelector(node.target), node.html));
      if (found) node.source = { ...found, method: 'static' };
    });
  }

  /** The location with its path relative to the source root, or null when it is outside or missing. */
  private inRoot(loc: RawLocation | null): Omit<NodeSource, 'method'> | null {
    if (!loc) return null;
    const rel = this.relative(loc.path);
    return rel ? { path: rel, line: loc.line, column: loc.column } : null;
  }

  private relative(file: string): string | null {
    const key = file.replace(/[?#].*$/, '');
    if (this.exists.has(key)) return this.exists.get(key) ?? null;
    let rel: string | null = null;
    try {
      let full = path.resolve(this.root, key);
      if (!path.isAbsolute(key) && !fs.existsSync(full)) full = this.files.onlyFileEndingWith(key) ?? full;
      const real = fs.realpathSync(full);
      const r = path.relative(this.root, real);
      if (r && !r.startsWith('..') && !path.isAbsolute(r) && fs.statSync(real).isFile()) {
        rel = r.split(path.sep).join('/');
      }
    } catch {
      rel = null; // no such file under the root
    }
    this.exists.set(key, rel);
    return rel;
  }
}
