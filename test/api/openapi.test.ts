import { openApiPath } from '../../api/http/route.js';
import type { Problem } from '../helpers/api-types.js';
import { startHarness, useHarness } from '../helpers/harness.js';

/** The parts of GET /api/v1 (ServiceInfo) and of the OpenAPI document these tests read. */
interface ServiceInfo {
  endpoints: Array<{ method: string; path: string; auth: string; summary: string }>;
  limits: { requests_per_minute_per_key: number };
}
interface OpenApiOperation {
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { 'x-limits': { pages_per_scan: number; pages_per_request: number } };
  components: { securitySchemes: Record<string, unknown> };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

describe('discovery: GET /api/v1 and the OpenAPI document', () => {
  const h = useHarness();

  test('every route is listed at GET /api/v1 and documented in OpenAPI with its errors', async () => {
    const info = await h.request<ServiceInfo>('GET', '/api/v1');
    const doc = (await h.request<OpenApiDocument>('GET', '/api/v1/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes).toHaveProperty('ApiKey');
    expect(doc.components.securitySchemes).toHaveProperty('AdminToken');
    const routes = h.server.service.http.routes;
    expect(info.body.endpoints).toHaveLength(routes.length);
    for (const r of routes) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method];
      expect(op).toBeDefined();
      expect(op.responses).toHaveProperty('500');
      if (r.access !== 'public') {
        expect(op.responses).toHaveProperty('401');
        expect(op.responses['401'].content).toHaveProperty(['application/problem+json']);
      }
      if (r.body) expect(op.responses).toHaveProperty('422');
      expect(info.body.endpoints).toContainEqual(
        expect.objectContaining({ method: r.method.toUpperCase(), path: openApiPath(r.path) }) as unknown,
      );
    }
    expect(doc.info['x-limits'].pages_per_scan).toBe(100_000);
    expect(doc.info['x-limits'].pages_per_request).toBe(10_000);
    expect(info.body.limits.requests_per_minute_per_key).toBe(600);
  });

  test('the contract checker rejects an undocumented answer', () => {
    expect(() => h.contract.check('GET', '/api/v1', 418, 'application/json', {})).toThrow(/not documented/);
    expect(() => h.contract.check('GET', '/api/v1/keys/me', 200, 'application/json', { id: 1 })).toThrow(
      /does not match/,
    );
  });
});

describe('errors the client cannot cause', () => {
  test('a lost database answers 503 unavailable, not 500', async () => {
    const h = await startHarness();
    await h.db.destroy();
    const res = await h.request<Problem>('GET', '/api/v1/keys', { admin: true });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('unavailable');
    expect(JSON.stringify(res.body)).not.toMatch(/select|sqlite|knex/i);
    // The database is gone, so the harness cannot clean up; only the server is closed.
    await new Promise<void>((resolve) => h.server.server.close(() => resolve()));
  });
});
