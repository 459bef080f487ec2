import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { createApp, type ApiApp } from '../src/http/app.js';
import { Keyring, parseTokens, TokenError } from '../src/http/keys.js';
import { clientBucket, foreignPage } from '../src/http/page-key.js';
import { MemoryQuotaStore, type QuotaStore } from '../src/http/quota.js';
import { RedisQuotaStore } from '../src/http/redis-quota.js';
import { serve, type Running } from '../src/http/server.js';
import { PAGE_CLIENT_QUOTA, PAGE_QUOTA, pageToken } from '../src/http/web-app.js';
import { coreIndex, THAMEL } from './support/http-fixture.js';
import { startRedis, type TestRedis } from './support/http-redis.js';

const KEY = 'Pg7WmX3pL9vT2nR8bY4cF6hJ';
const OWN = 'http://maps.example.test';
const PATH = `/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&limit=1&key=${KEY}`;

let index: PlaceIndex;
beforeAll(async () => {
  index = await coreIndex();
});

/** An app with the page key (defaults unless given) and its log; requests as @hono/node-server hands them. */
function pageApp(options: { store?: QuotaStore; quota?: typeof PAGE_QUOTA; perClient?: typeof PAGE_CLIENT_QUOTA } = {}) {
  const lines: string[] = [];
  const app = createApp({
    index,
    tokens: [pageToken(KEY, [OWN], options.quota, options.perClient)],
    store: options.store,
    log: (l) => lines.push(l),
  });
  return { app, lines };
}

/** A stand-in for a socket: what `socketClient` reads of the one @hono/node-server passes in `env`. */
const socket = (remoteAddress: string) => ({ remoteAddress });

async function get(app: ApiApp, conn: object, headers: Record<string, string> = {}, path = PATH) {
  const res = await app.fetch(new Request(`${OWN}${path}`, { headers }), { incoming: { socket: conn } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { message: string } };
}

async function statuses(app: ApiApp, conns: object[], n: number): Promise<Record<number, number>> {
  const seen: Record<number, number> = {};
  for (let i = 0; i < n; i++) {
    const { status } = await get(app, conns[i % conns.length]!);
    seen[status] = (seen[status] ?? 0) + 1;
  }
  return seen;
}

describe('the page key: a script that reads it is one client, refused at its own bound while the others are served', () => {
  it('6,100 requests from one address (10 connections): 1,200 answered, the rest 429; another address is still answered', async () => {
    const { app, lines } = pageApp();
    const script = Array.from({ length: 10 }, () => socket('203.0.113.7'));
    expect(await statuses(app, script, 6100)).toEqual({ 200: 1200, 429: 4900 });
    // its connections are past their own 600 by now: a new one of the same address
    const refused = await get(app, socket('203.0.113.7'));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^key: this client's share, 1200 requests per 60 s from one address, is used up; retry in \d+ s$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe('1200');
    // a visitor of the app, from another address, as a browser sends the page's requests
    const visitor = await get(app, socket('198.51.100.20'), { 'Sec-Fetch-Site': 'same-origin' });
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get('ratelimit-limit')).toBe('1200');
    expect(visitor.headers.get('ratelimit-remaining')).toBe('1199');
    for (const l of lines) expect(l).not.toContain(KEY);
  });

  it("one connection: 600 answered, then 429 on it; a new connection of the same address is answered up to the address's 1,200", async () => {
    const { app } = pageApp();
    const first = socket('203.0.113.8');
    expect(await statuses(app, [first], 700)).toEqual({ 200: 600, 429: 100 });
    expect((await get(app, first)).body.message).toMatch(/^key: this connection's share, 600 requests per 60 s, is used up; retry in/);
    // the connection's refusals are not counted against the address: 600 left on it
    expect(await statuses(app, [socket('203.0.113.8'), socket('203.0.113.8')], 700)).toEqual({ 200: 600, 429: 100 });
  });

  it("a client refused does not use up the key's shared quota: the others are served until it is", async () => {
    const { app } = pageApp({ quota: { requests: 50, windowSeconds: 60 }, perClient: { requests: 10, windowSeconds: 60 } });
    expect(await statuses(app, [socket('203.0.113.9')], 200)).toEqual({ 200: 10, 429: 190 });
    // 40 of the 50 left: four more clients at their bound, then the quota all share is used up
    for (const n of [1, 2, 3, 4]) expect(await statuses(app, [socket(`198.51.100.${n}`)], 10)).toEqual({ 200: 10 });
    const late = await get(app, socket('198.51.100.5'));
    expect(late.status).toBe(429);
    expect(late.body.message).toMatch(/^key: quota of 50 requests per 60 s used up; retry in/);
  });

  it('an IPv6 client is one client per /64; an IPv4-mapped address is its IPv4 client', async () => {
    const { app } = pageApp({ perClient: { requests: 3, windowSeconds: 60 } });
    expect(await statuses(app, [socket('2001:db8:1:2::1'), socket('2001:db8:1:2:ffff:ffff:ffff:fffe')], 5)).toEqual({ 200: 3, 429: 2 });
    expect(await statuses(app, [socket('2001:db8:1:3::1')], 1)).toEqual({ 200: 1 });
    expect(await statuses(app, [socket('192.0.2.1'), socket('::ffff:192.0.2.1')], 4)).toEqual({ 200: 3, 429: 1 });
  });

  it('without a known client (no socket: another runtime), all such requests are one client', async () => {
    const { app } = pageApp({ perClient: { requests: 2, windowSeconds: 60 } });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await app.fetch(new Request(`${OWN}${PATH}`))).status);
    expect(codes).toEqual([200, 200, 429]);
  });

  it('other keys are not bounded per client', async () => {
    const app = createApp({
      index,
      tokens: [{ key: 'o'.repeat(24), allowedOrigins: '*', quota: { requests: 100, windowSeconds: 60 } }],
      log: () => {},
    });
    let ok = 0;
    for (let i = 0; i < 30; i++) {
      const res = await app.fetch(new Request(`${OWN}${PATH.replace(KEY, 'o'.repeat(24))}`), {
        incoming: { socket: socket('203.0.113.1') },
      });
      if (res.status === 200) ok++;
    }
    expect(ok).toBe(30);
  });
});

describe("the page key: each client's bound holds across the instances that share the quota store", () => {
  it('two apps on one memory store', async () => {
    const store = new MemoryQuotaStore();
    const a = pageApp({ store, perClient: { requests: 5, windowSeconds: 60 } });
    const b = pageApp({ store, perClient: { requests: 5, windowSeconds: 60 } });
    expect(await statuses(a.app, [socket('203.0.113.7')], 3)).toEqual({ 200: 3 });
    expect(await statuses(b.app, [socket('203.0.113.7')], 4)).toEqual({ 200: 2, 429: 2 });
    expect(await statuses(b.app, [socket('203.0.113.70')], 1)).toEqual({ 200: 1 });
  });

  it('two instances, each with its own page key: one client of the site', async () => {
    const store = new MemoryQuotaStore();
    const other = 'Zz9WmX3pL9vT2nR8bY4cF6hJ';
    const a = pageApp({ store, perClient: { requests: 5, windowSeconds: 60 } });
    const b = createApp({ index, tokens: [pageToken(other, [OWN], PAGE_QUOTA, { requests: 5, windowSeconds: 60 })], store, log: () => {} });
    expect(await statuses(a.app, [socket('203.0.113.7')], 3)).toEqual({ 200: 3 });
    const codes = [];
    for (let i = 0; i < 4; i++)
      codes.push((await b.fetch(new Request(`${OWN}${PATH.replace(KEY, other)}`), { incoming: { socket: socket('203.0.113.7') } })).status);
    expect(codes).toEqual([200, 200, 429, 429]);
  });

  describe('two apps on Redis', () => {
    let redis: TestRedis;
    const stores: RedisQuotaStore[] = [];
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      for (const s of stores) await s.close();
      await redis?.stop();
    });
    it('the second instance refuses the client the first has counted', async () => {
      for (let i = 0; i < 2; i++) stores.push(await RedisQuotaStore.connect(redis.url));
      const [a, b] = stores.map((store) => pageApp({ store, perClient: { requests: 5, windowSeconds: 60 } }));
      expect(await statuses(a!.app, [socket('203.0.113.7')], 4)).toEqual({ 200: 4 });
      expect(await statuses(b!.app, [socket('203.0.113.7')], 3)).toEqual({ 200: 1, 429: 2 });
      expect(await statuses(b!.app, [socket('203.0.113.70')], 1)).toEqual({ 200: 1 });
    });
  });
});

describe("the page key over HTTP: the client is the socket's address, the connection its own", () => {
  let running: Running;
  const lines: string[] = [];
  beforeAll(async () => {
    const keyring = new Keyring([]);
    const app = createApp({ index, tokens: keyring, log: (l) => lines.push(l) });
    running = await serve(app, { port: 0, host: '127.0.0.1', signals: [] });
    keyring.replace([
      pageToken(KEY, [running.origin], { requests: 100, windowSeconds: 60 }, { requests: 10, windowSeconds: 60, perConnection: 4 }),
    ]);
  });
  afterAll(() => running?.close());

  // GETs on `agent`'s connections from the local address `from` (127.0.0.2 is loopback too on Linux).
  const fetchFrom = (from: string, agent: Agent | false) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: running.port, path: PATH, localAddress: from, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end();
    });
  const count = async (n: number, from: string, agent: Agent | false) => {
    const seen: Record<number, number> = {};
    for (let i = 0; i < n; i++) {
      const s = await fetchFrom(from, agent);
      seen[s] = (seen[s] ?? 0) + 1;
    }
    return seen;
  };

  it("a script on one kept-alive connection, then on new ones, past the key's whole quota; another address is still answered", async () => {
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await count(20, '127.0.0.2', kept)).toEqual({ 200: 4, 429: 16 });
    } finally {
      kept.destroy();
    }
    expect(await count(100, '127.0.0.2', false)).toEqual({ 200: 6, 429: 94 });
    expect(await count(3, '127.0.0.1', false)).toEqual({ 200: 3 });
    for (const l of lines) expect(l).not.toContain(KEY);
  });
});

describe("the page key: browsers may use it from the server's own pages only", () => {
  const cases: [string, Record<string, string>, number, RegExp?][] = [
    ["the page's own requests (same-origin, no Origin on a GET)", { 'Sec-Fetch-Site': 'same-origin' }, 200],
    ["the page's own requests with Origin", { 'Sec-Fetch-Site': 'same-origin', Origin: OWN }, 200],
    ['a URL the user opened (none)', { 'Sec-Fetch-Site': 'none' }, 200],
    ['curl (none of those headers): bounded per client only', {}, 200],
    [
      "another site's <img> (cross-site, no Origin)",
      { 'Sec-Fetch-Site': 'cross-site' },
      403,
      /^Sec-Fetch-Site: "cross-site": this key is the web app's own/,
    ],
    [
      "another site's fetch (cross-site with its Origin)",
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://elsewhere.example' },
      403,
      /^Origin: "https:\/\/elsewhere\.example" is not allowed/,
    ],
    ['cross-site claiming our Origin', { 'Sec-Fetch-Site': 'Cross-Site', Origin: OWN }, 403, /^Sec-Fetch-Site: "cross-site"/],
    [
      "a sibling origin's <img> (same-site, no Origin)",
      { 'Sec-Fetch-Site': 'same-site' },
      403,
      /^Sec-Fetch-Site: "same-site" from another origin/,
    ],
    [
      "a sibling origin's fetch (same-site with its Origin)",
      { 'Sec-Fetch-Site': 'same-site', Origin: 'http://other.example.test' },
      403,
      /^Origin: "http:\/\/other\.example\.test" is not allowed/,
    ],
    [
      'a page of another origin by its Referer (a browser without Sec-Fetch-Site)',
      { Referer: 'https://elsewhere.example/some/page?x=1' },
      403,
      /^Referer: a page of "https:\/\/elsewhere\.example": this key/,
    ],
    ['a Referer that is not a URL', { Referer: 'nonsense' }, 403, /^Referer: not a page's URL/],
    ['a page of ours by its Referer', { Referer: `${OWN}/#16/27.7/85.3` }, 200],
  ];
  for (const [name, headers, status, message] of cases) {
    it(`${name}: ${status}`, async () => {
      const { app, lines } = pageApp();
      const r = await get(app, socket('198.51.100.1'), headers);
      expect(r.status).toBe(status);
      if (message) expect(r.body.message).toMatch(message);
      expect(lines.join('\n')).not.toContain(KEY);
      expect(lines.join('\n')).not.toContain('some/page');
    });
  }

  it('a preflight from another site is refused too; a refusal is not counted', async () => {
    const { app } = pageApp({ perClient: { requests: 1, windowSeconds: 60 } });
    const pre = await app.fetch(
      new Request(`${OWN}${PATH}`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET', 'Sec-Fetch-Site': 'cross-site' },
      }),
    );
    expect(pre.status).toBe(403);
    expect((await get(app, socket('198.51.100.1'), { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await get(app, socket('198.51.100.1'))).status).toBe(200);
  });

  it("a key from a tokens file keeps working from another site's <img> (the rule is the page key's)", async () => {
    const app = createApp({
      index,
      tokens: [{ key: 'f'.repeat(24), allowedOrigins: ['https://partner.example'], quota: { requests: 10, windowSeconds: 60 } }],
      log: () => {},
    });
    const res = await app.fetch(new Request(`${OWN}${PATH.replace(KEY, 'f'.repeat(24))}`, { headers: { 'Sec-Fetch-Site': 'cross-site' } }));
    expect(res.status).toBe(200);
  });
});

describe('the memory store forgets the clients whose windows have ended', () => {
  it("five windows of 20,000 new client addresses each: it never holds more than twice a window's", async () => {
    let t = 0;
    const store = new MemoryQuotaStore(() => t);
    let most = 0;
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 20_000; i++) {
        await store.hit(`page-key-digest/198.${round}.${i >> 8}.${i & 255}`, 60, 1200);
        most = Math.max(most, store.size);
      }
      t += 60_000; // every window of this round has ended
    }
    expect(most).toBeLessThanOrEqual(40_000);
    // a window still running is kept, whatever is swept around it
    const live = await store.hit('live', 600, 3);
    for (let i = 0; i < 5_000; i++) await store.hit(`other/${i}`, 1, 3);
    t += 2_000;
    for (let i = 0; i < 70_000; i++) await store.hit(`late/${i}`, 1, 3);
    expect(live.remaining).toBe(2);
    expect((await store.hit('live', 600, 3)).remaining).toBe(1);
  });
});

describe('foreignPage and clientBucket, rule by rule', () => {
  const own = new Set([OWN]);
  it('refuses cross-site whatever else, same-site unless its Origin is ours, a Referer of another origin', () => {
    expect(foreignPage(own, { site: 'cross-site', origin: OWN })).toBeDefined();
    expect(foreignPage(own, { site: 'same-site', origin: OWN })).toBeUndefined();
    expect(foreignPage(own, { site: 'same-site' })).toBeDefined();
    expect(foreignPage(own, { site: 'same-origin', referer: `${OWN}/` })).toBeUndefined();
    expect(foreignPage(own, { site: 'same-origin', referer: 'http://maps.example.test:8080/' })).toBeDefined();
    expect(foreignPage(own, {})).toBeUndefined();
  });
  it('names a client by its address, an IPv6 one by its /64', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientBucket('2001:DB8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(clientBucket('2001:db8::2:1')).toBe('2001:db8:0:0::/64');
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientBucket(undefined)).toBe('unknown');
  });
});

describe('tokens: perClient and ownPages', () => {
  const good = { key: 'k'.repeat(20), allowedOrigins: [OWN], quota: { requests: 5, windowSeconds: 60 } };
  it('are kept as given', () => {
    expect(parseTokens([{ ...good, perClient: { requests: 2, windowSeconds: 10, perConnection: 1 }, ownPages: true }])[0]).toEqual({
      ...good,
      perClient: { requests: 2, windowSeconds: 10, perConnection: 1 },
      ownPages: true,
    });
  });
  it.each([
    [{ perClient: 5 }, /tokens\[0\]\.perClient: must be \{ requests, windowSeconds, perConnection\? \}/],
    [{ perClient: { requests: 0, windowSeconds: 10 } }, /tokens\[0\]\.perClient\.requests: must be a positive integer/],
    [{ perClient: { requests: 1, windowSeconds: 10, perConnection: 0.5 } }, /tokens\[0\]\.perClient\.perConnection/],
    [{ ownPages: 'yes' }, /tokens\[0\]\.ownPages: must be a boolean/],
    [{ ownPages: true, allowedOrigins: '*' }, /tokens\[0\]\.ownPages: needs allowedOrigins as an array/],
  ])('refuses %j', (more, message) => {
    expect(() => parseTokens([{ ...good, ...more }])).toThrow(TokenError);
    expect(() => parseTokens([{ ...good, ...more }])).toThrow(message);
  });
});
