import { startHarness } from '../helpers/harness.js';

describe('logs', () => {
  test('request logs carry the request id and never a key or the admin token', async () => {
    const h = await startHarness({ logLevel: 'trace' });
    const key = await h.createKey();
    await h.request('GET', '/api/v1/keys/me', { key, headers: { 'x-request-id': 'log-check-1' } });
    await h.request('GET', '/api/v1/keys/me', { headers: { 'x-api-key': key } });
    await h.request('GET', '/api/v1/keys', { admin: true });
    await h.request('GET', '/api/v1/keys/me', { key: key.slice(0, -1) + 'x' });
    await h.close();
    const text = h.logs.join('');
    expect(text).toContain('log-check-1');
    expect(text).toContain('api key created');
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(18, 40));
    expect(text).not.toContain(h.adminToken);
  });
});
