/**
 * The service behind the local server's `gate` and `deploy_issues`, when `--api-url` and the key are given:
 * the API client (`POST /api/v1/deploy/trigger`, `GET /api/v1/deploy/:id`), as the service's own `/mcp`
 * answers them.
 */
import { randomUUID } from 'node:crypto';
import type { DeployEvent } from '../../core/gate/deploy-event.js';
import type { GateBackend } from '../../core/mcp/tools.js';
import { cliClient } from '../service.js';

export interface McpService {
  apiUrl: string;
  apiKey: string;
}

export function serviceBackend(service: McpService, log: (line: string) => void): GateBackend {
  const client = cliClient(service, log);
  return {
    async trigger(request) {
      // Each call is a fresh question (scans may have arrived since); its retries share one key.
      const res = await client.post<DeployEvent>(
        '/api/v1/deploy/trigger',
        request,
        `a11y-gate-mcp-${randomUUID()}`,
      );
      return { event: res.body, detailsUrl: res.pageUrl ?? res.location ?? null };
    },
    async deployEvent(id) {
      return (await client.get<DeployEvent>(`/api/v1/deploy/${encodeURIComponent(id)}`)).body;
    },
  };
}
