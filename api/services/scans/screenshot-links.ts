import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { screenshotSignature, validScreenshotSignature } from '../../domain/scans/screenshot.js';
import { screenshotAlt } from '../../../core/scans/pictures.js';
import { webhookSecretBox } from '../../secret-box.js';
import { findScan } from '../../store/scans/scans.js';
import {
  readScreenshotPng,
  screenshotsByFingerprint,
  screenshotsOfIssues,
  type ScreenshotRecord,
} from '../../store/scans/screenshots.js';

/** Where the signed links point, under the service's root (PUBLIC_URL). */
export const SIGNED_SCREENSHOT_PATH = '/screenshots/';
/** How long a link the console puts in its own pages stays valid. */
const CONSOLE_LINK_SECONDS = 3600;

/** The key of the links: SCREENSHOT_URL_KEY, else one derived from the webhook secret key. */
function linkKey(ctx: ApiContext): Buffer {
  const configured = ctx.config.screenshots.urlKey;
  return configured
    ? Buffer.from(configured, 'utf8')
    : webhookSecretBox(ctx).derivedKey('a11y-gate screenshot links');
}

/** `/screenshots/<id>.png?expires=…&signature=…`, valid until `expires` (Unix seconds). */
export function signedScreenshotPath(ctx: ApiContext, id: string, expires: number): string {
  const signature = screenshotSignature(linkKey(ctx), id, expires);
  return `${SIGNED_SCREENSHOT_PATH}${encodeURIComponent(id)}.png?expires=${expires}&signature=${signature}`;
}

function expiry(ctx: ApiContext, now: Date, seconds?: number): number {
  const life = seconds ?? Math.floor(ctx.config.screenshots.urlTtlMs / 1000);
  return Math.floor(now.getTime() / 1000) + life;
}

/** A picture's signed link under PUBLIC_URL, or undefined when the service has no public address. */
export function screenshotUrl(ctx: ApiContext, id: string, now = new Date()): string | undefined {
  const base = ctx.config.publicUrl;
  return base ? base + signedScreenshotPath(ctx, id, expiry(ctx, now)) : undefined;
}

export interface IssueScreenshot {
  id: string;
  /** The signed link under PUBLIC_URL (undefined without one). */
  url: string | undefined;
  alt: string;
  width: number;
  height: number;
}

function linked(s: ScreenshotRecord, url: string | undefined): IssueScreenshot {
  return { id: s.id, url, alt: screenshotAlt(s.rule, s.selector), width: s.width, height: s.height };
}

/**
 * The pictures of a scan's issues named by fingerprint (a deploy event's issues), with their signed links:
 * `public` under PUBLIC_URL for the check run and the pull request's comment (undefined without one),
 * `console` short-lived and relative to the console's root. Another org's scan has none.
 */
export async function issueScreenshots(
  ctx: ApiContext,
  org: string,
  scanId: string | null,
  fingerprints: readonly string[],
  options: { links?: 'public' | 'console'; now?: Date } = {},
): Promise<Map<string, IssueScreenshot>> {
  const out = new Map<string, IssueScreenshot>();
  if (!scanId || fingerprints.length === 0 || !(await findScan(ctx.db, org, scanId))) return out;
  const now = options.now ?? new Date();
  const link =
    options.links === 'console'
      ? (id: string) => signedScreenshotPath(ctx, id, expiry(ctx, now, CONSOLE_LINK_SECONDS))
      : (id: string) => screenshotUrl(ctx, id, now);
  for (const s of await screenshotsByFingerprint(ctx.db, scanId, fingerprints)) {
    if (!out.has(s.fingerprint)) out.set(s.fingerprint, linked(s, link(s.id)));
  }
  return out;
}

/** The console's pictures of the issues it shows of a scan it has read (by issue id), linked for itself. */
export async function consoleScreenshots(
  ctx: ApiContext,
  scanId: string,
  issueIds: readonly number[],
  now = new Date(),
): Promise<Map<number, IssueScreenshot>> {
  const rows = await screenshotsOfIssues(ctx.db, scanId, issueIds);
  const expires = expiry(ctx, now, CONSOLE_LINK_SECONDS);
  return new Map(rows.map((s) => [s.issueId, linked(s, signedScreenshotPath(ctx, s.id, expires))]));
}

/** The PNG behind a signed link; not found for a forged, altered or expired one, or a removed scan. */
export async function readSignedScreenshot(
  ctx: ApiContext,
  id: string,
  expires: number,
  signature: string,
  now = new Date(),
): Promise<Buffer> {
  const valid = validScreenshotSignature(linkKey(ctx), id, expires, signature, now.getTime() / 1000);
  const png = valid ? await readScreenshotPng(ctx.db, id, null) : undefined;
  if (!png) throw domainErrors.notFound('screenshot');
  return png;
}

/** The PNG of one of an org's scans (a key or a console session reads it); another org's is not found. */
export async function readScanScreenshot(
  ctx: ApiContext,
  org: string,
  scanId: string,
  id: string,
): Promise<Buffer> {
  const png = await readScreenshotPng(ctx.db, id, { org, scanId });
  if (!png) throw domainErrors.notFound('screenshot');
  return png;
}
