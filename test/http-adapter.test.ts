import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMESTAMP_PATTERN } from '../src/http/openapi.js';
import { coreIndex, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';

const key = token('n');
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ index: await coreIndex(), tokens: [key] });
});
afterAll(() => server?.close());

/** Sends raw bytes on a fresh connection and reads everything until the server closes it. */
function raw(bytes: string): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.running.port, '127.0.0.1');
    let data = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer in 5 s')));
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.write(bytes);
  });
}

const LINE = /^\S+Z (\S+) (\S+) (\S+) (\d{3}) \d+\.\dms key=-$/;

describe('requests the Node adapter refuses: an envelope and one log line each', () => {
  it.each([
    ['GET *', 'GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400, 'GET *'],
    ['Host: a b', 'GET /api/v1/openapi.json HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n', 400, 'GET /api/v1/openapi.json'],
    [
      'a backslash in the path',
      `GET /api\\v1/search/nearby?type=cafe&key=${key.key} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      400,
      'GET /api\\v1/search/nearby?type=cafe',
    ],
    ['headers over the limit (431)', `GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(70_000)}\r\n\r\n`, 431, '- -'],
    ['not HTTP', 'HELLO THERE\r\n\r\n', 400, '- -'],
    ['a bad header line', 'GET / HTTP/1.1\r\nHost x\r\n\r\n', 400, '- -'],
    ['no Host', 'GET /api/v1/openapi.json HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'GET /api/v1/openapi.json'],
    [
      'an Expect other than 100-continue (417)',
      'GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\nExpect: magic\r\nConnection: close\r\n\r\n',
      417,
      'GET /api/v1/openapi.json',
    ],
  ])('%s: %s', async (_, bytes, status, logged) => {
    const before = server.lines.length;
    const r = await raw(bytes);
    expect(r.status).toBe(status);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.body));
    const body = JSON.parse(r.body);
    expect(Object.keys(body)).toEqual(['timestamp', 'status', 'message', 'data']);
    expect(body.timestamp).toMatch(new RegExp(TIMESTAMP_PATTERN));
    expect(body).toMatchObject({ status, data: [] });
    expect(body.message).toMatch(
      { 400: /^Bad request: /, 417: /^Expectation failed: "magic"/, 431: /^Request header fields too large/ }[status]!,
    );
    const lines = server.lines.slice(before);
    expect(lines.length).toBe(1);
    const m = LINE.exec(lines[0]!);
    expect(m).not.toBeNull();
    expect(`${m![2]} ${m![3]}`).toBe(logged);
    expect(Number(m![4])).toBe(status);
    expect(m![1]).toBe(r.headers.get('x-request-id'));
    expect(lines[0]).not.toContain(key.key);
  });

  it('a good request on the same server still answers (the refusals left it serving)', async () => {
    expect((await server.request('/api/v1/openapi.json')).status).toBe(200);
  });
});
