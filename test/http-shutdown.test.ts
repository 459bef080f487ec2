/**
 * Shutdown under keep-alive: once the server stops, every answer says `Connection: close` and
 * its connection ends cleanly after it; an idle connection gets a FIN, never a reset; a request
 * already on its way when the shutdown starts is answered, not reset.
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { NearbyPlace } from '../src/index.js';
import { createApp } from '../src/http/app.js';
import { serve } from '../src/http/server.js';
import { coreIndex, token } from './support/http-fixture.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const key = token('s');
const health = (host: string) => `GET /api/v1/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`;

/** A raw keep-alive connection: what it received, and how it ended ('end' is a FIN, 'error' a reset). */
interface Conn {
  socket: Socket;
  data: string;
  ended: Promise<'end' | string>;
}

function open(port: number): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const conn: Conn = {
      socket,
      data: '',
      ended: new Promise((done) => {
        socket.on('end', () => done('end'));
        socket.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
      }),
    };
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (conn.data += d));
    socket.once('connect', () => resolve(conn));
    socket.once('error', reject);
  });
}

/** Waits until `conn` has received `n` whole responses. */
async function responses(conn: Conn, n: number): Promise<void> {
  for (let i = 0; i < 500 && parse(conn.data).length < n; i++) await new Promise((r) => setTimeout(r, 10));
  expect(parse(conn.data).length).toBeGreaterThanOrEqual(n);
}

/** The responses in raw HTTP/1.1 text: status, headers (lower-case names), body. */
function parse(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const out = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const [line, ...fields] = text.slice(at, end).split('\r\n');
    const headers = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length']);
    if (!Number.isFinite(length) || text.length < end + 4 + length) break;
    out.push({ status: Number(line!.split(' ')[1]), headers, body: text.slice(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return out;
}

describe('requests already sent on keep-alive connections when the shutdown starts are answered, not reset', () => {
  it('20 idle keep-alive connections each send a request in the tick the shutdown starts: 20 answers with Connection: close, then a FIN', async () => {
    const index = await coreIndex();
    const s = await serve(createApp({ index, tokens: [key], log: () => {} }), { port: 0, signals: [] });
    const conns = await Promise.all(Array.from({ length: 20 }, () => open(s.port)));
    for (const c of conns) c.socket.write(health(`127.0.0.1:${s.port}`));
    await Promise.all(conns.map((c) => responses(c, 1)));
    for (const c of conns) expect(parse(c.data)[0]!.headers.connection).toBe('keep-alive');
    // The second requests reach the server's sockets before it stops, unread.
    for (const c of conns) c.socket.write(health(`127.0.0.1:${s.port}`));
    const closing = s.close();
    const ends = await Promise.all(conns.map((c) => c.ended));
    await closing;
    expect(ends).toEqual(conns.map(() => 'end'));
    for (const c of conns) {
      const [, last] = parse(c.data);
      expect(last).toMatchObject({ status: 200, headers: { connection: 'close' } });
      expect(JSON.parse(last!.body)).toMatchObject({ status: 200 });
    }
  });
});

describe('an idle keep-alive connection gets a FIN; a request in flight gets its whole answer with Connection: close', () => {
  it('idle: a clean end within a second; in flight: 200, Connection: close, the body whole, then a FIN', async () => {
    const index = await coreIndex();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const app = createApp({ index, tokens: [key], log: () => {}, nearby: async () => (entered(), await gate, [] as NearbyPlace[]) });
    const s = await serve(app, { port: 0, signals: [] });
    const idle = await open(s.port);
    idle.socket.write(health(`127.0.0.1:${s.port}`));
    await responses(idle, 1);
    const busy = await open(s.port);
    busy.socket.write(`GET /api/v1/search/nearby?type=cafe&lat=27.7&lon=85.3&key=${key.key} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await inside;
    const t0 = performance.now();
    const closing = s.close();
    expect(await idle.ended).toBe('end');
    expect(performance.now() - t0).toBeLessThan(1000); // "at once": a short linger, see serve()
    release();
    expect(await busy.ended).toBe('end');
    const [answer] = parse(busy.data);
    expect(answer).toMatchObject({ status: 200, headers: { connection: 'close' } });
    expect(JSON.parse(answer!.body)).toMatchObject({ status: 200, data: [] });
    await closing;
  });
});

describe('nepal-places serve: SIGTERM under 20 keep-alive clients resets no request', () => {
  it('every request is answered until the port refuses new connections; each connection ends after a Connection: close', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', '--no-app'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let url: string | undefined;
      for (let i = 0; i < 600 && !url; i++) {
        url = /^try: curl '([^']+)'$/m.exec(stdout)?.[1];
        if (!url) await new Promise((r) => setTimeout(r, 100));
      }
      expect(url).toBeDefined();
      const agent = new Agent({ keepAlive: true, maxSockets: 20 });
      const errors: string[] = [];
      let answered = 0;
      let closes = 0;
      let stop = false;
      const one = () =>
        new Promise<boolean>((resolve) => {
          request(url!, { agent }, (res) => {
            if (res.headers.connection === 'close') closes++;
            res.resume();
            res.on('end', () => (answered++, resolve(true)));
            res.on('error', (err: NodeJS.ErrnoException) => (errors.push(err.code ?? err.message), resolve(false)));
          })
            .on('error', (err: NodeJS.ErrnoException) => {
              // refused: the server no longer listens, the expected end of each client's loop
              if (err.code !== 'ECONNREFUSED') errors.push(err.code ?? err.message);
              resolve(false);
            })
            .end();
        });
      const clients = Array.from({ length: 20 }, async () => {
        while (!stop && (await one()));
      });
      // Let the 20 connections run, then stop the server under them.
      for (let i = 0; i < 400 && answered < 400; i++) await new Promise((r) => setTimeout(r, 10));
      child.kill('SIGTERM');
      const code = await exit;
      stop = true;
      await Promise.all(clients);
      agent.destroy();
      expect(code).toBe(0);
      expect(answered).toBeGreaterThanOrEqual(400);
      expect(errors).toEqual([]);
      expect(closes).toBeGreaterThanOrEqual(1);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
