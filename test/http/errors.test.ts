import express from 'express';
import request from 'supertest';
import { errorHandler } from '../../api/http/errors.js';
import { createLogger } from '../../api/index.js';
import type { ApiContext } from '../../api/context.js';
import type { Problem } from '../helpers/api-types.js';

describe('the error handler', () => {
  const lines: string[] = [];
  const logger = createLogger({ logLevel: 'error' }, { write: (l: string) => lines.push(l) });
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = 'req-1';
    next();
  });
  app.get('/boom', () => {
    throw new Error('SQLITE_ERROR: no such column: secret_hash in select * from api_keys');
  });
  app.get('/lost', () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  app.use(errorHandler({ logger } as ApiContext));

  test('an unexpected error is a generic 500 with the request id; the cause goes to the log only', async () => {
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'internal', status: 500, request_id: 'req-1' });
    expect(JSON.stringify(res.body)).not.toMatch(/SQLITE|select|stack/i);
    expect(lines.join('')).toContain('no such column');
  });

  test('a database connection failure is 503 unavailable', async () => {
    const res = await request(app).get('/lost');
    expect(res.status).toBe(503);
    expect((res.body as Problem).code).toBe('unavailable');
  });
});
