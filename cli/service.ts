import crypto from 'node:crypto';
import path from 'node:path';
import { ApiClient } from '../client/api-client.js';
import type { ScanCreated, ScanBodyPage, ScanRequest, TriggerRequest } from '../client/wire-types.js';
import { type DeployEvent } from '../core/gate/deploy-event.js';
import { SERVED_DIR, type ServedFolderRef } from '../core/gate/served-folder.js';
import { submitScan } from '../client/scan-submit.js';
import { screenshotsLine, sendScreenshots } from '../client/screenshots.js';
import { screenshotsToSend } from '../scanner/scan-body.js';
import type { ScanRun } from '../scanner/scan.js';
import type { ServiceOptions } from './options.js';

/** One invocation is one run: retries within it reuse their keys, a new invocation scans afresh. */
const RUN = crypto.randomUUID();

export function keyFor(service: ServiceOptions, request: string, body: unknown): string {
  const digest = crypto
    .createHash('sha256')
    .update(`${RUN}|${service.siteId ?? ''}|${service.sha ?? ''}|${request}|${JSON.stringify(body)}`)
    .digest('hex');
  return `a11y-gate-cli-${request}-${digest.slice(0, 40)}`;
}

export interface ServiceOutcome {
  scan: ScanCreated;
  gate: DeployEvent | null;
  detailsUrl: string | null;
}

/** Submits the scanned pages (in parts when large and offered), then asks the gate about the sha. */
export async function submitAndGate(
  service: ServiceOptions,
  run: ScanRun,
  pages: ScanBodyPage[],
  log: (line: string) => void,
): Promise<ServiceOutcome> {
  const client = cliClient(service, log);
  const body = scanBody(service, run, pages);
  const scan = (await submitScan(client, body, (request, b) => keyFor(service, request, b), log)).body;
  log(`Scan ${scan.id} submitted: ${scan.summary.pages} pages, ${scan.summary.issues} issues`);
  const shots = screenshotsToSend(run);
  if (shots.length > 0) {
    const key = (request: string, b: unknown) => keyFor(service, request, { scan: scan.id, b });
    log(screenshotsLine(scan.id, await sendScreenshots(client, scan.id, shots, key, log)));
  }
  if (!service.gate) return { scan, gate: null, detailsUrl: null };
  return {
    scan,
    ...(await askGate(client, service, (trigger) => keyFor(service, 'gate', { trigger, scan: scan.id }))),
  };
}

/** The service's client for the command line. */
export function cliClient(
  service: Pick<ServiceOptions, 'apiUrl' | 'apiKey'>,
  log: (line: string) => void,
): ApiClient {
  return new ApiClient({
    baseUrl: service.apiUrl,
    apiKey: service.apiKey,
    userAgent: 'a11y-gate-cli',
    log,
    ...(process.env.A11Y_GATE_RETRY_DELAY_MS
      ? { retryDelayMs: Number(process.env.A11Y_GATE_RETRY_DELAY_MS) }
      : {}),
  });
}

/** The folder a run served, named from the working folder as the user would type it again. */
export function servedFolder(run: ScanRun): ServedFolderRef | null {
  if (!run.served) return null;
  return { dir: path.relative(process.cwd(), run.served.dir) || '.', spa: run.served.spa };
}

/** The scan body of the scanned pages: the site is the first listed page's origin. */
export function scanBody(service: ServiceOptions, run: ScanRun, pages: ScanBodyPage[]): ScanRequest {
  // Without --site-id the service names the site after the host; without --sha the scan has no commit.
  const served = servedFolder(run);
  return {
    url: run.siteUrl ?? new URL(run.pages[0].url).origin + '/',
    ...(service.siteId ? { siteId: service.siteId } : {}),
    ...(service.sha ? { sha: service.sha } : {}),
    ...(service.branch ? { branch: service.branch } : {}),
    engine: run.engine,
    ...(run.scope === 'partial' ? { scope: 'partial' } : {}),
    ...(served && SERVED_DIR.test(served.dir) ? { served } : {}),
    pages,
  } as ScanRequest;
}

/** Asks the gate about the sha; `keyOf` gives the request's Idempotency-Key for its trigger body. */
export async function askGate(
  client: ApiClient,
  service: ServiceOptions,
  keyOf: (trigger: TriggerRequest) => string,
): Promise<{ gate: DeployEvent; detailsUrl: string }> {
  const trigger: TriggerRequest = { siteId: service.siteId as string, sha: service.sha as string };
  if (service.failOnCritical !== null) trigger.fail_on_critical = service.failOnCritical;
  if (service.failOnSerious !== null) trigger.fail_on_serious = service.failOnSerious;
  if (service.maxNewIssues !== null) trigger.max_total = service.maxNewIssues;
  const res = await client.post<DeployEvent>('/api/v1/deploy/trigger', trigger, keyOf(trigger));
  // The console page for people when the service has a PUBLIC_URL; else the deploy event in the API.
  const detailsUrl =
    res.pageUrl ?? res.location ?? `${service.apiUrl}/api/v1/deploy/${encodeURIComponent(res.body.id)}`;
  return { gate: res.body, detailsUrl };
}
