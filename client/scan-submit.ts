import type { ApiClient, ApiResponse } from './api-client.js';
import type { ScanCreated, ScanBodyPage, ScanRequest } from './wire-types.js';

/**
 * Sends a scan: in one request, as every version of the service takes it, or in parts when the body is large
 * and the service offers scans in parts (`POST /api/v1/scans` with `complete: false`, then batches to
 * `/scans/{id}/pages`, then `/scans/{id}/complete`). Each request has its own Idempotency-Key, so a retried
 * batch is stored once.
 */

/** Above this many bytes of JSON a scan goes in parts, when the service offers them. */
export const PART_BYTES = 4 * 1024 * 1024;
const SCAN_TIMEOUT_MS = 120_000;

interface ServiceInfo {
  endpoints?: { method?: string; path?: string }[];
  limits?: { body_bytes?: number };
}

export type KeyFor = (request: string, body: unknown) => string;

/** Pages cut into batches of at most `bytes` of JSON each (a page larger than that goes alone). */
export function batches(pages: ScanBodyPage[], bytes: number): ScanBodyPage[][] {
  const out: ScanBodyPage[][] = [];
  let current: ScanBodyPage[] = [];
  let size = 0;
  for (const page of pages) {
    const n = Buffer.byteLength(JSON.stringify(page));
    if (current.length > 0 && size + n > bytes) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(page);
    size += n;
  }
  if (current.length > 0) out.push(current);
  return out;
}

async function partsOffered(client: ApiClient): Promise<ServiceInfo | null> {
  const info = await client.getPublic<ServiceInfo>('/api/v1');
  const offered = info?.endpoints?.some(
    (e) => e.method === 'POST' && /^\/api\/v1\/scans\/\{[^}]+\}\/pages$/.test(e.path ?? ''),
  );
  return offered ? info : null;
}

export async function submitScan(
  client: ApiClient,
  scan: ScanRequest,
  keyFor: KeyFor,
  log: (line: string) => void,
  partBytes: number = PART_BYTES,
): Promise<ApiResponse<ScanCreated>> {
  const size = Buffer.byteLength(JSON.stringify(scan));
  const info = size > partBytes ? await partsOffered(client) : null;
  if (!info) {
    return client.post<ScanCreated>('/api/v1/scans', scan, keyFor('scan', scan), {
      timeoutMs: SCAN_TIMEOUT_MS,
    });
  }
  const limit = Math.min(partBytes, Math.floor((info.limits?.body_bytes ?? partBytes * 2) / 2));
  const parts = batches(scan.pages, limit);
  const opening = { ...scan, pages: [], complete: false };
  const opened = await client.post<ScanCreated & { status?: string }>(
    '/api/v1/scans',
    opening,
    keyFor('scan-open', scan),
  );
  const id = encodeURIComponent(opened.body.id);
  for (const [i, pages] of parts.entries()) {
    const body = { pages };
    await client.post(`/api/v1/scans/${id}/pages`, body, keyFor(`scan-part-${i}`, body), {
      timeoutMs: SCAN_TIMEOUT_MS,
    });
    log(`Scan ${opened.body.id}: part ${i + 1} of ${parts.length} sent (${pages.length} pages)`);
  }
  return client.post<ScanCreated>(
    `/api/v1/scans/${id}/complete`,
    {},
    keyFor('scan-complete', opened.body.id),
    {
      timeoutMs: SCAN_TIMEOUT_MS,
    },
  );
}
