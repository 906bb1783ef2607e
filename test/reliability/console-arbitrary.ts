import fc from 'fast-check';
import type { Router } from 'express';

/**
 * Hostile requests for the console's pages and forms: every route the console's router declares (so
 * pages that land later are covered without editing this file), with path parameters that name real
 * resources or nothing at all, query strings and form bodies of hostile values under the names the
 * console's pages and forms really use, with this session's CSRF token, a wrong one or none.
 */

export interface ConsoleRoute {
  method: 'GET' | 'POST';
  template: string;
}

export interface ConsoleRequest {
  route: ConsoleRoute;
  method: string;
  path: string;
  form?: URLSearchParams;
  csrf: 'valid' | 'wrong' | 'missing' | 'none';
  session: boolean;
  describe: string;
}

/** The routes of the console's router, as express holds them. */
export function consoleRoutes(router: Router): ConsoleRoute[] {
  const out: ConsoleRoute[] = [];
  for (const layer of router.stack) {
    const route = layer.route as { path: unknown; methods?: Record<string, boolean> } | undefined;
    if (!route || typeof route.path !== 'string') continue;
    for (const [method, on] of Object.entries(route.methods ?? {})) {
      if (on && (method === 'get' || method === 'post')) {
        out.push({ method: method.toUpperCase() as 'GET' | 'POST', template: route.path });
      }
    }
  }
  return out;
}

/** Query names the console's pages read (a page ignores the others, which are sent too). */
export const CONSOLE_QUERY_NAMES = [
  'impact',
  'rule',
  'page',
  'after',
  'against',
  'deploys',
  'scans',
  'next',
  'criterion',
  'waived',
  'stale',
  'saved',
  'decided',
  'published',
  'signed_out',
];

const ascii = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

const HOSTILE = [
  '',
  '%00',
  '\u0000',
  '..',
  '../../etc/passwd',
  '-1',
  '0',
  '999999999999',
  '1e309',
  'NaN',
  'null',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' or 1=1 --",
  'javascript:alert(1)',
  '//evil.example/',
  'https://evil.example/',
  '\u202Egnp.exe',
  'a'.repeat(5000),
  'eyJhIjoxfQ',
  'WyJhIiwiIiwxXQ',
];

const hostileValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: ascii(60) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.nat().map(String) },
);

/** One request to one console route; `known` names real ids, `fields` the forms' field names. */
export function consoleRequestFor(
  route: ConsoleRoute,
  known: readonly string[],
  fields: readonly string[],
): fc.Arbitrary<ConsoleRequest> {
  const params = [...route.template.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  const param = fc.oneof(
    { weight: 4, arbitrary: fc.nat().map((n) => (known.length ? known[n % known.length] : 'none')) },
    { weight: 1, arbitrary: fc.constantFrom('html', 'md', 'pdf', 'json', 'openacr', 'csv') },
    { weight: 3, arbitrary: hostileValue },
  );
  const pairs = (names: readonly string[]) =>
    fc.array(
      fc.tuple(
        fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: ascii(20) }),
        hostileValue,
      ),
      { maxLength: 6 },
    );
  return fc
    .record({
      params: fc.array(param, { minLength: params.length, maxLength: params.length }),
      query: pairs(CONSOLE_QUERY_NAMES),
      form: pairs(fields.length ? fields : ['x']),
      csrf: fc.constantFrom('valid', 'valid', 'valid', 'wrong', 'missing', 'none'),
      session: fc.oneof(
        { weight: 9, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
      otherMethod: fc.oneof(
        { weight: 12, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE') },
      ),
    })
    .map((c) => {
      let path = route.template;
      params.forEach((name, i) => {
        path = path.replace(`:${name}`, encodeURIComponent(c.params[i]));
      });
      const qs = new URLSearchParams(c.query);
      if (qs.size > 0) path += `?${qs.toString()}`;
      const method = c.otherMethod ?? route.method;
      const form = method === 'GET' ? undefined : new URLSearchParams(c.form);
      const csrf = method === 'GET' ? 'none' : c.csrf;
      const describe = `${method} ${path} session=${c.session} csrf=${csrf} form=${form?.toString().slice(0, 300) ?? ''}`;
      return {
        [fc.toStringMethod]: () => describe,
        route,
        method,
        path,
        form,
        csrf,
        session: c.session,
        describe,
      } as ConsoleRequest;
    });
}
