import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreIndex } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ index: await coreIndex() });
});
afterAll(() => server?.close());

/** Writes `raw` on a new connection; resolves with all it reads until the server closes it. */
function exchange(raw: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(server.running.port, '127.0.0.1', () => socket.write(raw));
    // a server that never closes fails the test here rather than hanging it
    const timer = setTimeout(() => (socket.destroy(), resolve({ text, closed: false })), 5_000);
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => (clearTimeout(timer), resolve({ text, closed: true })));
    socket.on('error', reject);
  });
}

describe('CONNECT: a 405 envelope with Allow, logged, and the connection closed', () => {
  it.each([
    ['an authority', 'example.com:443'],
    ['a path of ours', '/api/v1/health'],
  ])('%s', async (_, target) => {
    const before = server.lines.length;
    const { text, closed } = await exchange(`CONNECT ${target} HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
    expect(closed).toBe(true);
    const [head, body] = text.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(head).toMatch(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
    expect(head).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(Number(/\r\ncontent-length: (\d+)/i.exec(head)![1])).toBe(Buffer.byteLength(body));
    const envelope = JSON.parse(body);
    expect(envelope).toMatchObject({ status: 405, message: 'Method not allowed: "CONNECT"; allowed: GET, HEAD, OPTIONS', data: [] });
    const lines = server.lines.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(` CONNECT ${target.replace(/[.]/g, '\\.')} 405 `));
  });

  it('the server still answers on new connections', async () => {
    await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect((await server.request('/api/v1/health')).status).toBe(200);
  });
});
