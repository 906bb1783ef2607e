import type { ApiClient } from './api-client.js';
import { ApiError } from './errors.js';
import type { ScreenshotRequest, ScreenshotsStored } from './wire-types.js';

/** A picture of a violating element, named as the scan stores the violation. */
export interface ScreenshotToSend {
  pageUrl: string;
  /** The page's viewport, when the scan named one: a page scanned at two is two pages of the scan. */
  viewport?: string;
  rule: string;
  selector: string;
  png: Uint8Array;
}

export interface ScreenshotsSent {
  /** Newly stored, already stored (a retry), and refused or lost. */
  stored: number;
  already: number;
  notSent: number;
}

/** The service takes at most this many pictures per request (those of one page). */
export const SCREENSHOTS_PER_REQUEST = 20;

function batchesOf(shots: ScreenshotToSend[]): ScreenshotToSend[][] {
  const byPage = new Map<string, ScreenshotToSend[]>();
  for (const s of shots) {
    const page = `${s.pageUrl}\n${s.viewport ?? ''}`;
    byPage.set(page, [...(byPage.get(page) ?? []), s]);
  }
  const out: ScreenshotToSend[][] = [];
  for (const page of byPage.values()) {
    for (let i = 0; i < page.length; i += SCREENSHOTS_PER_REQUEST) {
      out.push(page.slice(i, i + SCREENSHOTS_PER_REQUEST));
    }
  }
  return out;
}

/**
 * Sends a complete scan's element screenshots (`POST /api/v1/scans/{id}/screenshots`), a page's pictures
 * per request, each with its own Idempotency-Key. Never throws: pictures add to a scan, and a refused batch
 * or a service without the endpoint (404) is logged and counted, not a failure of the run.
 */
export async function sendScreenshots(
  client: ApiClient,
  scanId: string,
  shots: ScreenshotToSend[],
  keyFor: (request: string, body: unknown) => string,
  log: (line: string) => void,
): Promise<ScreenshotsSent> {
  const sent: ScreenshotsSent = { stored: 0, already: 0, notSent: 0 };
  const path = `/api/v1/scans/${encodeURIComponent(scanId)}/screenshots`;
  const batches = batchesOf(shots);
  for (const [i, batch] of batches.entries()) {
    const body: ScreenshotRequest = {
      images: batch.map((s) => ({
        page_url: s.pageUrl,
        ...(s.viewport ? { viewport: s.viewport } : {}),
        rule: s.rule,
        selector: s.selector,
        png: Buffer.from(s.png).toString('base64'),
      })),
    };
    try {
      const res = await client.post<ScreenshotsStored>(path, body, keyFor(`screenshots-${i}`, body));
      for (const image of res.body.images) {
        if (image.created) sent.stored++;
        else sent.already++;
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      sent.notSent += batch.length;
      log(`Screenshots of ${batch[0].pageUrl} not stored: ${err.message}`);
      if (err.details.status === 404) {
        sent.notSent += batches.slice(i + 1).reduce((n, b) => n + b.length, 0);
        log('The service does not take screenshots (or the scan is gone): the rest are not sent.');
        break;
      }
    }
  }
  return sent;
}

/** One line for the log: what was sent. */
export function screenshotsLine(scanId: string, sent: ScreenshotsSent): string {
  const parts = [`${sent.stored} stored`];
  if (sent.already) parts.push(`${sent.already} already stored`);
  if (sent.notSent) parts.push(`${sent.notSent} not stored`);
  return `Scan ${scanId}: element screenshots ${parts.join(', ')}`;
}
