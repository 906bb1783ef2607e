import { generateOpenApi } from '../../api/http/openapi.js';
import { deprecationHeaders, defineRoute, MIN_DEPRECATION_NOTICE_DAYS } from '../../api/http/route.js';
import { loadConfig } from '../../api/index.js';

const old = defineRoute({
  method: 'get',
  path: '/api/v1/old-thing',
  tag: 'Test',
  summary: 'An operation on its way out',
  access: 'public',
  deprecated: { since: '2027-01-01', sunset: '2027-07-05', notice: 'Use `GET /api/v1/new-thing`.' },
  responses: { 200: { description: 'ok' } },
  handler: () => Promise.resolve({ status: 200, body: {} }),
});

describe('deprecation (docs/api.md)', () => {
  test('Deprecation and Sunset headers from the notice; a notice shorter than the minimum is refused', () => {
    expect(deprecationHeaders(old.deprecated!)).toMatchObject({
      Deprecation: `@${Date.UTC(2027, 0, 1) / 1000}`,
      Sunset: 'Mon, 05 Jul 2027 00:00:00 GMT',
    });
    expect(MIN_DEPRECATION_NOTICE_DAYS).toBeGreaterThanOrEqual(183);
    expect(() => deprecationHeaders({ since: '2027-01-01', sunset: '2027-03-01', notice: '' })).toThrow(
      /notice/,
    );
  });

  test('the OpenAPI document marks the operation deprecated with its dates and replacement', () => {
    const doc = generateOpenApi({ version: 't', limits: loadConfig({}).limits, routes: [old] }) as {
      paths: Record<string, { get: { deprecated?: boolean; description: string } }>;
    };
    const op = doc.paths['/api/v1/old-thing'].get;
    expect(op.deprecated).toBe(true);
    expect(op.description).toContain('2027-07-05');
    expect(op.description).toContain('GET /api/v1/new-thing');
  });
});
