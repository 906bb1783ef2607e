import { checkTargetUrl, forbiddenReason, guardedLookup } from '../../api/outbox/ssrf-guard.js';

const FORBIDDEN_ADDRESSES = [
  '127.0.0.1',
  '127.255.255.254',
  '0.0.0.0',
  '10.1.2.3',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '169.254.1.1',
  '100.64.0.1',
  '224.0.0.1',
  '255.255.255.255',
  '::1',
  '::',
  'fe80::1',
  'fc00::1',
  'fd00:ec2::254',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:10.0.0.1',
  // IPv4-compatible (::/96, deprecated): the WHATWG parser writes [::127.0.0.1] as [::7f00:1].
  '::7f00:1',
  '::a00:1',
  '::a9fe:a9fe',
  '::808:808',
  // NAT64 (64:ff9b::/96 and 64:ff9b:1::/48), SIIT (::ffff:0:0:0/96), 6to4 and Teredo embed an IPv4 address.
  '64:ff9b::7f00:1',
  '64:ff9b:1::a00:1',
  '::ffff:0:7f00:1',
  '2002:7f00:1::',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  'fec0::1',
];

describe('SSRF guard', () => {
  test.each(FORBIDDEN_ADDRESSES)('%s is forbidden', (address) => {
    expect(forbiddenReason(address)).toMatch(/^is an? /);
  });

  test.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34'])(
    '%s is a public address',
    (address) => {
      expect(forbiddenReason(address)).toBeUndefined();
    },
  );

  test.each([
    'https://127.0.0.1/hook',
    'https://0x7f000001/hook',
    'https://2130706433/hook',
    'https://0177.0.0.1/hook',
    'https://127.1/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://[::7f00:1]/hook',
    'https://[::127.0.0.1]/hook',
    'https://[0:0:0:0:0:0:127.0.0.1]/hook',
    'https://[64:ff9b::127.0.0.1]/hook',
    'https://[::ffff:0:127.0.0.1]/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://10.0.0.1/',
    'https://100.100.100.200/',
    'https://localhost/hook',
    'https://api.localhost/hook',
    'https://metadata.google.internal/',
    'https://intranet/',
    'http://example.com/hook',
  ])('%s is refused without resolving', (url) => {
    expect(checkTargetUrl(url, false)).toBeDefined();
  });

  test('a public https URL is accepted; http and private targets only with allowPrivate', () => {
    expect(checkTargetUrl('https://hooks.example.com/a11y?x=1', false)).toBeUndefined();
    expect(checkTargetUrl('https://93.184.216.34/', false)).toBeUndefined();
    expect(checkTargetUrl('http://127.0.0.1:8080/', true)).toBeUndefined();
    expect(checkTargetUrl('ftp://127.0.0.1/', true)).toMatch(/http or https/);
  });

  test('a refusal names the setting that allows local receivers', () => {
    expect(checkTargetUrl('http://hooks.example.com/', false)).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/);
    expect(checkTargetUrl('https://127.0.0.1:8443/', false)).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/);
    expect(checkTargetUrl('https://localhost/', false)).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/);
  });

  test('the connect-time lookup refuses a name that resolves to a forbidden address (DNS rebinding)', async () => {
    const answers: Record<string, Array<{ address: string; family: number }>> = {
      'good.example': [{ address: '93.184.216.34', family: 4 }],
      'rebind.example': [{ address: '127.0.0.1', family: 4 }],
      'mixed.example': [
        { address: '93.184.216.34', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ],
      'mapped.example': [{ address: '::ffff:10.0.0.1', family: 6 }],
      'compatible.example': [{ address: '::7f00:1', family: 6 }],
    };
    const lookup = guardedLookup((host) => Promise.resolve(answers[host] ?? []));
    const call = (host: string) =>
      new Promise<{ err: Error | null; address: unknown }>((resolve) =>
        lookup(host, {}, (err, address) => resolve({ err, address })),
      );
    expect(await call('good.example')).toEqual({ err: null, address: '93.184.216.34' });
    for (const host of ['rebind.example', 'mixed.example', 'mapped.example', 'compatible.example']) {
      const { err } = await call(host);
      expect(err?.message).toMatch(new RegExp(`^${host} resolves to .*, which is an? `));
    }
    expect((await call('nothing.example')).err).toBeTruthy();
  });
});
