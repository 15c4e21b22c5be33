import diagnostics from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRefusal, fetchWebsite, WebsiteRefusedError, WebsiteUnreachableError, type Resolver } from '../website/fetch-website';
import { html, startLocalServer, type LocalServer } from './fakes';

/*
 * Refusal tests run with the loopback allowance OFF: every check happens before a socket is opened, so nothing
 * is ever sent anywhere. Tests that do connect only reach servers on 127.0.0.1 with the test-only allowance.
 */

const neverResolve: Resolver = async (host) => {
  throw new Error(`test must not resolve ${host}`);
};

/** Runs `fn` and counts the client sockets Node opened meanwhile (net.connect publishes each one, before connecting). */
async function socketsOpenedDuring(fn: () => Promise<unknown>): Promise<{ sockets: number; outcome: PromiseSettledResult<unknown> }> {
  let sockets = 0;
  const count = () => {
    sockets += 1;
  };
  diagnostics.subscribe('net.client.socket', count);
  try {
    const [outcome] = await Promise.allSettled([fn()]);
    return { sockets, outcome: outcome! };
  } finally {
    diagnostics.unsubscribe('net.client.socket', count);
  }
}

/** ipaddr.js files these under 'unicast'; they lead to loopback (::7f00:1), a site network, a local NAT64. */
const UNICAST_LOOKALIKES = ['http://[::127.0.0.1]/', 'http://[fec0::1]/', 'http://[64:ff9b:1::7f00:1]/'];

const SSRF_CORPUS = [
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/', // decimal 127.0.0.1
  'http://0x7f000001/', // hex
  'http://0x7f.0.0.1/', // hex dotted
  'http://0177.0.0.1/', // octal
  'http://017700000001/', // octal whole
  'http://10.0.0.1/',
  'http://10.255.255.254/',
  'http://172.16.0.1/',
  'http://172.31.255.1/',
  'http://192.168.1.1/',
  'http://0xc0a80101/', // hex 192.168.1.1
  'http://3232235777/', // decimal 192.168.1.1
  'http://169.254.169.254/latest/meta-data/', // cloud metadata
  'http://169.254.1.1/',
  'http://100.64.0.1/', // CGNAT
  'http://100.127.255.254/',
  'http://0.0.0.0/',
  'http://0.1.2.3/',
  'http://224.0.0.1/', // multicast
  'http://239.255.255.250/',
  'http://255.255.255.255/',
  'http://240.0.0.1/', // reserved
  'http://[::1]/',
  'http://[::]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[fc00::1]/', // ULA
  'http://[fd12:3456:789a::1]/',
  'http://[fe80::1]/', // link-local
  'http://[::ffff:127.0.0.1]/', // IPv4-mapped
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[64:ff9b::a00:1]/', // NAT64 of 10.0.0.1
  'http://[2002:7f00:1::]/', // 6to4 of 127.0.0.1
  'http://[ff02::1]/',
  'http://localhost/',
  'http://LOCALHOST./',
  'http://app.localhost/',
  'https://localhost:443/',
  'ftp://example.com/',
  'file:///etc/passwd',
  'gopher://127.0.0.1:70/',
  'http://user:pass@example.com/',
  'http://example.com:8080/', // port not 80/443
  'http://example.com:22/',
  'http://intranet/', // single-label host
];

describe('SSRF refusals (allowance off)', () => {
  it(`refuses all ${SSRF_CORPUS.length} URLs of the corpus before connecting`, async () => {
    expect(SSRF_CORPUS.length).toBeGreaterThanOrEqual(30);
    for (const url of SSRF_CORPUS) {
      await expect(fetchWebsite(url, { resolver: neverResolve }), url).rejects.toBeInstanceOf(WebsiteRefusedError);
    }
  });

  it('refuses a host name that resolves to a private address (resolver injected)', async () => {
    for (const address of ['10.1.2.3', '127.0.0.1', '169.254.169.254', '::1', 'fd00::5', '100.64.3.4']) {
      const resolver: Resolver = async () => [{ address, family: address.includes(':') ? 6 : 4 }];
      await expect(fetchWebsite('https://innocent-looking.example/', { resolver })).rejects.toThrow(/resolves to .*not allowed/);
    }
  });

  it('refuses when any one of several addresses is private', async () => {
    const resolver: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await expect(fetchWebsite('https://mixed.example/', { resolver })).rejects.toBeInstanceOf(WebsiteRefusedError);
  });

  it('classifies public unicast as allowed and every special range as refused', () => {
    expect(addressRefusal('93.184.216.34')).toBeNull();
    expect(addressRefusal('2606:4700:4700::1111')).toBeNull();
    expect(addressRefusal('127.0.0.1')).toMatch(/loopback/);
    expect(addressRefusal('127.0.0.1', true)).toBeNull();
    expect(addressRefusal('10.0.0.1', true)).toMatch(/private/);
  });
});

describe('the allow-list: global unicast only', () => {
  it('refuses ::7f00:1, fec0::1 and 64:ff9b:1::7f00:1 typed as the address, before opening a socket', async () => {
    for (const url of UNICAST_LOOKALIKES) {
      const { sockets, outcome } = await socketsOpenedDuring(() => fetchWebsite(url, { resolver: neverResolve, timeoutMs: 2000 }));
      expect(outcome.status, url).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason, url).toBeInstanceOf(WebsiteRefusedError);
      expect(sockets, url).toBe(0);
    }
  });

  it('refuses them when a host name resolves to them, with the test allowance on too', async () => {
    for (const address of ['::7f00:1', 'fec0::1', '64:ff9b:1::7f00:1']) {
      const resolver: Resolver = async () => [{ address, family: 6 }];
      for (const testOnlyAllowLoopback of [false, true]) {
        await expect(fetchWebsite('http://lookalike.example/', { resolver, testOnlyAllowLoopback }), address).rejects.toBeInstanceOf(WebsiteRefusedError);
      }
    }
  });

  const ALLOWED = [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1', // just above 172.16.0.0/12
    '100.128.0.1', // just above 100.64.0.0/10
    '192.0.3.1', // just above 192.0.2.0/24
    '223.255.255.254', // just below multicast
    '::ffff:8.8.8.8', // IPv4-mapped: judged as 8.8.8.8
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:200::1', // just above 2001::/23
    '2003::1', // just above 2002::/16
    '3ffe:ffff::1', // inside 2000::/3, below 3fff::/20
  ];
  const REFUSED = [
    // IPv4 (IANA IPv4 Special-Purpose Address Registry, multicast, 240/4, limited broadcast)
    '0.0.0.0', '0.255.255.255',
    '10.0.0.0', '10.255.255.255',
    '100.64.0.0', '100.127.255.255',
    '127.0.0.1', '127.255.255.254',
    '169.254.0.1', '169.254.169.254',
    '172.16.0.1', '172.31.255.255',
    '192.0.0.1', '192.0.0.9', '192.0.0.255',
    '192.0.2.1', '192.88.99.1',
    '192.168.0.1', '192.168.255.255',
    '198.18.0.1', '198.19.255.255',
    '198.51.100.1', '203.0.113.1',
    '224.0.0.1', '239.255.255.255',
    '240.0.0.1', '254.255.255.255', '255.255.255.255',
    // IPv4-mapped: judged as the IPv4 address
    '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:100.64.0.1',
    // IPv6 outside 2000::/3
    '::', '::1', '::7f00:1', '::a00:1', '::ffff:0:a00:1', '0:0:0:0:0:0:0:2', '1::1', '100::1',
    '64:ff9b::a00:1', '64:ff9b::808:808', '64:ff9b:1::7f00:1', '64:ff9b:1:ffff::1',
    'fc00::1', 'fdff:ffff::1', 'fe80::1', 'febf::1', 'fec0::1', 'feff::1', 'ff02::1', 'ff0e::1',
    '4000::1', 'e000::1', '1fff:ffff::1',
    // IPv6 special blocks inside 2000::/3
    '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:1::1', '2001:2::1', '2001:3::1', '2001:4:112::1',
    '2001:10::1', '2001:20::1', '2001:1ff:ffff::1',
    '2001:db8::1', '2001:db8:ffff::1',
    '2002::1', '2002:7f00:1::1', '2002:ffff::1',
    '3fff::1', '3fff:fff::1',
  ];

  it.each(ALLOWED)('allows the public address %s', (address) => {
    expect(addressRefusal(address)).toBeNull();
  });

  it.each(REFUSED)('refuses the special address %s, also with the test allowance unless it is loopback', (address) => {
    expect(addressRefusal(address)).toEqual(expect.any(String));
    const loopback = ['127.0.0.1', '127.255.255.254', '::ffff:127.0.0.1', '::1'].includes(address);
    if (loopback) expect(addressRefusal(address, true)).toBeNull();
    else expect(addressRefusal(address, true)).toEqual(expect.any(String));
  });
});

describe('refusal messages do not disclose internal addresses', () => {
  it('says a resolved name is private, not which address it resolves to', async () => {
    for (const address of ['10.1.2.3', 'fd00:1234::5', '::ffff:192.168.7.9']) {
      const resolver: Resolver = async () => [{ address, family: address.includes(':') ? 6 : 4 }];
      const outcome = await fetchWebsite('https://intranet.example/', { resolver }).catch((e: unknown) => e);
      expect(outcome).toBeInstanceOf(WebsiteRefusedError);
      const message = (outcome as Error).message;
      expect(message).toBe(
        'This website cannot be analyzed: The website address intranet.example resolves to a private or reserved network address, which is not allowed.',
      );
      expect(message).not.toContain(address);
    }
  });

  it('names the range of an address the visitor typed', async () => {
    await expect(fetchWebsite('http://10.0.0.7/', { resolver: neverResolve })).rejects.toThrow(
      'The website address 10.0.0.7 is a private network address, which is not allowed.',
    );
  });
});

describe('fetching local pages (test-only loopback allowance)', () => {
  let site: LocalServer;
  const opts = { testOnlyAllowLoopback: true };

  beforeAll(async () => {
    site = await startLocalServer((req, _body, res) => {
      const path = req.url ?? '/';
      if (path === '/') return html(res, '<title>Home</title>');
      if (path === '/hop1') return res.writeHead(302, { Location: '/hop2' }).end();
      if (path === '/hop2') return res.writeHead(301, { Location: '/hop3' }).end();
      if (path === '/hop3') return res.writeHead(307, { Location: '/' }).end();
      if (path === '/loop') return res.writeHead(302, { Location: '/loop' }).end();
      if (path === '/to-private') return res.writeHead(302, { Location: 'http://10.0.0.1/admin' }).end();
      if (path === '/to-metadata') return res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (path === '/to-mapped') return res.writeHead(302, { Location: 'http://[::ffff:192.168.0.1]/' }).end();
      if (path.startsWith('/to-lookalike/')) {
        return res.writeHead(302, { Location: UNICAST_LOOKALIKES[Number(path.slice('/to-lookalike/'.length))] }).end();
      }
      if (path === '/json') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end('{}');
      }
      if (path === '/huge') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 40; i++) res.write(chunk);
        return res.end();
      }
      if (path === '/slow') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.write('<html>');
        return; // never ends
      }
      if (path === '/host') return html(res, `<p>${req.headers.host}</p>`);
      if (path === '/500') {
        res.writeHead(500, { 'Content-Type': 'text/html' });
        return res.end('oops');
      }
      res.writeHead(404).end();
    });
  });
  afterAll(() => site.close());

  it('reads an HTML page and measures it', async () => {
    const page = await fetchWebsite(`${site.url}/`, opts);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Home</title>');
    expect(page.bytes).toBeGreaterThan(0);
    expect(page.finalUrl).toBe(`${site.url}/`);
  });

  it('follows up to 3 redirects, and refuses a 4th', async () => {
    const page = await fetchWebsite(`${site.url}/hop1`, opts);
    expect(page.redirects).toHaveLength(3);
    expect(page.body).toContain('Home');
    await expect(fetchWebsite(`${site.url}/loop`, opts)).rejects.toThrow(/redirected more than 3 times/);
  });

  it('re-checks every redirect hop: a redirect into a private address is refused', async () => {
    await expect(fetchWebsite(`${site.url}/to-private`, opts)).rejects.toThrow(/private network/);
    await expect(fetchWebsite(`${site.url}/to-metadata`, opts)).rejects.toThrow(/link-local/);
    await expect(fetchWebsite(`${site.url}/to-mapped`, opts)).rejects.toBeInstanceOf(WebsiteRefusedError);
  });

  it('refuses a redirect to an address ipaddr.js calls unicast (::7f00:1, fec0::1, 64:ff9b:1::/48) without connecting to it', async () => {
    for (const [i, target] of UNICAST_LOOKALIKES.entries()) {
      const { sockets, outcome } = await socketsOpenedDuring(() => fetchWebsite(`${site.url}/to-lookalike/${i}`, { ...opts, timeoutMs: 2000 }));
      expect(outcome.status, target).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason, target).toBeInstanceOf(WebsiteRefusedError);
      // The one socket is the hop to our loopback server; the redirect target never got one.
      expect(sockets, target).toBe(1);
    }
  });

  it('refuses loopback (and its port) without the allowance', async () => {
    await expect(fetchWebsite(`${site.url}/`)).rejects.toBeInstanceOf(WebsiteRefusedError);
  });

  it('accepts HTML only, caps the body at 2 MB and gives up after the deadline', async () => {
    await expect(fetchWebsite(`${site.url}/json`, opts)).rejects.toThrow(/Only HTML pages/);
    await expect(fetchWebsite(`${site.url}/huge`, { ...opts, maxBytes: 1024 * 1024 })).rejects.toThrow(/larger than 2 MB/);
    const started = Date.now();
    await expect(fetchWebsite(`${site.url}/slow`, { ...opts, timeoutMs: 300 })).rejects.toBeInstanceOf(WebsiteUnreachableError);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(fetchWebsite(`${site.url}/500`, opts)).rejects.toThrow(/HTTP 500/);
  });

  it('connects to the address it checked: one lookup per hop, Host header kept', async () => {
    let lookups = 0;
    const resolver: Resolver = async () => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const page = await fetchWebsite(`http://shop.example:${site.port}/host`, { ...opts, resolver });
    expect(lookups).toBe(1);
    expect(page.body).toContain(`shop.example:${site.port}`);
  });
});
