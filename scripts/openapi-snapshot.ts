import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiService, createLogger, loadConfig } from '../api/index.js';

/**
 * Writes `docs/openapi-v1.json`: the parts of the OpenAPI document `/api/v1` promises to keep (paths,
 * schemas, webhooks), from a service with the default configuration. Run after adding to the API;
 * `test/api/openapi-compat.test.ts` fails when the generated document removes or narrows any of it.
 */
export const SNAPSHOT_PATH = path.join(import.meta.dirname, '..', 'docs', 'openapi-v1.json');

export function promisedParts(doc: Record<string, unknown>) {
  return { openapi: doc.openapi, paths: doc.paths, components: doc.components, webhooks: doc.webhooks };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-openapi-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'false' });
  const service = await createApiService({ config, logger: createLogger(config) });
  try {
    const doc = service.http.openApiDocument() as Record<string, unknown>;
    fs.writeFileSync(SNAPSHOT_PATH, JSON.stringify(promisedParts(doc), null, 2) + '\n');
    console.log(`wrote ${SNAPSHOT_PATH}`);
  } finally {
    await service.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await main();
