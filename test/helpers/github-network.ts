import nock from 'nock';

/**
 * GitHub is nock's in the calling test file: no request leaves the machine except to the loopback servers
 * the tests start, and no interceptor or pending request outlives its test.
 */
export function onlyFakeGitHub(): void {
  beforeAll(() => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
  });
  afterEach(() => {
    nock.abortPendingRequests();
    nock.cleanAll();
  });
  afterAll(() => nock.enableNetConnect());
}
