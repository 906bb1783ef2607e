import './cjs-require.js';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import yaml from 'js-yaml';
import { lilconfig, type Loader } from 'lilconfig';
import { z } from 'zod';
import { UsageError, type CommandLine } from './args.js';
import { IgnoreSchema, type Ignore } from '../scanner/ignores.js';
import { ViewportsSchema } from '../scanner/viewports.js';
import { PageSettingsSchema, type PageSettings } from '../scanner/url-settings.js';

/**
 * The configuration file: `a11y-gate.config.{json,yaml,yml,mjs}` or an `a11y-gate` key in package.json, found
 * from the working folder upwards, or named with `--config FILE`. Its keys are the flags' names in camelCase
 * (`--wait-for` is `waitFor`); a flag given on the command line replaces the file's key. The file's shape is
 * checked here; its values then go through the same reading as the flags, so both refuse the same things.
 */

export const CONFIG_FILES = [
  'a11y-gate.config.json',
  'a11y-gate.config.yaml',
  'a11y-gate.config.yml',
  'a11y-gate.config.mjs',
] as const;

/** A configuration file is a page of settings: anything larger is not one, and is not parsed. */
export const CONFIG_MAX_BYTES = 256 * 1024;

/** One line of text: a value with a line break would be read as two (headers, lists). */
const line = z.string().regex(/^[^\r\n]*$/, 'must be one line');
const text = line.min(1, 'must not be empty');
const count = z.number().int('must be a whole number').min(0, 'must not be negative');
const list = z.array(text);
const pairs = z.record(text, line);

export const ConfigFileSchema = z.strictObject({
  urls: list.optional(),
  sitemap: text.optional(),
  sitemapRewrite: text.optional(),
  crawl: count.optional(),
  urlsFile: text.optional(),
  scope: text.optional(),
  serve: text.optional(),
  spa: z.boolean().optional(),
  exclude: list.optional(),
  shard: text.optional(),
  chromePath: text.optional(),
  concurrency: count.optional(),
  timeout: count.optional(),
  waitUntil: text.optional(),
  waitFor: text.optional(),
  axeTags: list.optional(),
  viewports: ViewportsSchema.optional(),
  bypassCsp: z.boolean().optional(),
  headers: pairs.optional(),
  cookies: pairs.optional(),
  storageState: text.optional(),
  loginScript: text.optional(),
  loginUrl: text.optional(),
  apiUrl: text.optional(),
  apiKey: text.optional(),
  siteId: text.optional(),
  sha: text.optional(),
  branch: text.optional(),
  gate: z.boolean().optional(),
  scanGroup: text.optional(),
  failOnCritical: z.boolean().optional(),
  failOnSerious: z.boolean().optional(),
  maxNewIssues: count.optional(),
  sourceRoot: text.optional(),
  sourceMap: pairs.optional(),
  sourceAttribute: text.optional(),
  screenshots: z.boolean().optional(),
  screenshotsPerPage: count.optional(),
  screenshotsPerScan: count.optional(),
  screenshotMaxKb: count.optional(),
  out: text.optional(),
  junit: text.optional(),
  sarif: text.optional(),
  html: text.optional(),
  open: z.boolean().optional(),
  baseline: text.optional(),
  pages: z.array(PageSettingsSchema).optional(),
  ignore: z.array(IgnoreSchema).optional(),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Keys that name a file or folder: read relative to the configuration file, not the working folder. */
const PATH_KEYS = new Set([
  'urlsFile',
  'serve',
  'storageState',
  'loginScript',
  'sourceRoot',
  'out',
  'junit',
  'sarif',
  'html',
  'baseline',
]);

export type { Ignore };

export interface LoadedConfig {
  /** The file as the user knows it (relative to the working folder when under it). */
  file: string;
  /** Flag name (`wait-for`) to its value as flag text. */
  values: Map<string, string>;
  pages: PageSettings[];
  ignores: Ignore[];
}

/** Keys named in the plural for what they hold, whose flag names one (`--header`, repeatable). */
const FLAG_OF_KEY: Record<string, string> = { headers: 'header', cookies: 'cookie', viewports: 'viewport' };

/** `waitFor` → `wait-for`. */
export const flagOf = (key: string): string =>
  FLAG_OF_KEY[key] ?? key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
/** `wait-for` → `waitFor`. */
export const keyOf = (flag: string): string =>
  Object.keys(FLAG_OF_KEY).find((k) => FLAG_OF_KEY[k] === flag) ??
  flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The command line with the file's values under it: a flag given replaces the file's key. */
export function withConfig(cl: CommandLine, config: LoadedConfig): CommandLine {
  const values = new Map(cl.values);
  const origins = new Map<string, string>();
  for (const [flag, value] of config.values) {
    if (flag === 'urls' || values.has(flag)) continue;
    values.set(flag, value);
    origins.set(flag, config.file);
  }
  const fromFile = cl.urls.length === 0 ? (config.values.get('urls')?.split('\n') ?? []) : [];
  if (fromFile.length > 0) origins.set('urls', config.file);
  return { ...cl, urls: fromFile.length > 0 ? fromFile : cl.urls, values, origins };
}

/** The loaders of each form, their errors naming the file as the user knows it. */
function loaders(cwd: string): Record<string, Loader> {
  const guarded =
    (load: (file: string, content: string) => unknown): Loader =>
    async (file, content) => {
      const name = shown(file, cwd);
      if (Buffer.byteLength(content) > CONFIG_MAX_BYTES)
        throw new UsageError(`${name}: larger than ${CONFIG_MAX_BYTES / 1024} KiB: not a configuration file`);
      try {
        return await load(file, content);
      } catch (e) {
        throw new UsageError(`${name}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
    };
  // The core schema: plain data only (no custom tags, no dates), so `until` stays the text it was written as.
  const loadYaml = guarded((_, content) => yaml.load(content, { schema: yaml.CORE_SCHEMA }));
  return {
    '.json': guarded((_, content) => JSON.parse(content.replace(/^\uFEFF/, '')) as unknown),
    '.yaml': loadYaml,
    '.yml': loadYaml,
    // Code, run as a login script is: the file is the user's own, named by them or committed with the site.
    '.mjs': guarded(async (file) => {
      const mod = (await import(/* webpackIgnore: true */ pathToFileURL(file).href)) as { default?: unknown };
      return mod.default;
    }),
  };
}

function shown(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/** The configuration named by `--config`, else the nearest one found; null when there is none. */
export async function loadConfigFile(cwd: string, named: string | null): Promise<LoadedConfig | null> {
  const finder = lilconfig('a11y-gate', {
    searchPlaces: ['package.json', ...CONFIG_FILES],
    loaders: loaders(cwd),
    stopDir: path.parse(cwd).root,
  });
  let found: { filepath: string; config: unknown } | null;
  try {
    if (named) {
      const file = path.resolve(cwd, named);
      if (!fs.existsSync(file)) throw new UsageError(`--config ${named}: no such file`);
      if (!['.json', '.yaml', '.yml', '.mjs'].includes(path.extname(file)))
        throw new UsageError(`--config ${named}: must be a .json, .yaml, .yml or .mjs file`);
      found = await finder.load(file);
    } else {
      found = await finder.search(cwd);
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${named ?? 'configuration file'}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!found) return null;
  const file = shown(found.filepath, cwd);
  const label = path.basename(found.filepath) === 'package.json' ? `${file} ("a11y-gate" key)` : file;
  return readConfig(found.config ?? {}, label, path.dirname(found.filepath));
}

/** Checks a configuration's shape and turns it into flag values; errors name the key and the file. */
export function readConfig(raw: unknown, file: string, dir: string): LoadedConfig {
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    const where = at.replace(/^\./, '');
    if (issue.code === 'unrecognized_keys') {
      const key = `${where ? `${where}.` : ''}${issue.keys[0]}`;
      throw new UsageError(`${file}: unknown key "${key}"`);
    }
    if (!where) throw new UsageError(`${file}: must hold an object of settings`);
    throw new UsageError(`${file}: "${where}" ${issue.message.replace(/^Invalid input: /, '')}`);
  }
  const config = parsed.data;
  const values = new Map<string, string>();
  for (const [key, value] of Object.entries(config)) {
    if (key === 'pages' || key === 'ignore' || value === undefined) continue;
    values.set(flagOf(key), flagText(key, value, dir));
  }
  // A page's login script, like the run's, is a path from the file's folder.
  const pages = (config.pages ?? []).map((p) =>
    p.loginScript ? { ...p, loginScript: path.resolve(dir, p.loginScript) } : p,
  );
  return { file, values, pages, ignores: config.ignore ?? [] };
}

/** A value as the flag would give it: lists one a line, headers `Name: value`, cookies `name=value`. */
function flagText(key: string, value: unknown, dir: string): string {
  if (Array.isArray(value)) return value.join('\n');
  if (typeof value === 'object' && value !== null) {
    const sep = key === 'headers' ? ': ' : key === 'cookies' ? '=' : ' => ';
    return Object.entries(value as Record<string, string>)
      .map(([k, v]) => `${k}${sep}${v}`)
      .join('\n');
  }
  if (typeof value === 'string' && PATH_KEYS.has(key)) return path.resolve(dir, value);
  return String(value);
}
