import net from 'node:net';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection, ResponseParser, requestHead, requestText } from '../../scripts/bench/client.js';
import { readLoad } from '../../scripts/bench/load.js';

const response = (body: string, extra = '') => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const bodies = (rs: { body: Buffer }[]) => rs.map((r) => r.body.toString());

describe('the bench client: ResponseParser', () => {
  it('frames a response that arrives one byte at a time', () => {
    const parser = new ResponseParser();
    const bytes = Buffer.from(response('{"jsonrpc":"2.0","id":1,"result":"0x2a"}'));
    const out = [];
    for (let i = 0; i < bytes.length; i++) out.push(...parser.push(bytes.subarray(i, i + 1)));
    expect(bodies(out)).toEqual(['{"jsonrpc":"2.0","id":1,"result":"0x2a"}']);
    expect(out[0]!.status).toBe(200);
    expect(parser.buffered).toBe(0);
  });

  it('frames pipelined responses in one chunk, and one split across chunks after them', () => {
    const parser = new ResponseParser();
    const third = response('{"id":3}');
    const all = Buffer.from(response('{"id":1}') + response('{"id":2}') + third);
    const cut = all.length - third.length + 20; // inside the third response's headers
    expect(bodies(parser.push(all.subarray(0, cut)))).toEqual(['{"id":1}', '{"id":2}']);
    expect(parser.buffered).toBe(20);
    expect(bodies(parser.push(all.subarray(cut)))).toEqual(['{"id":3}']);
  });

  it('joins a large body from many chunks, byte for byte', () => {
    const parser = new ResponseParser();
    const body = JSON.stringify({ result: 'ab'.repeat(200_000) });
    const bytes = Buffer.from(response(body));
    const out = [];
    for (let i = 0; i < bytes.length; i += 65_536) out.push(...parser.push(bytes.subarray(i, i + 65_536)));
    expect(bodies(out)).toEqual([body]);
  });

  it('reads a chunked body, a non-200 status and Connection: close', () => {
    const parser = new ResponseParser();
    const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n3\r\n12}\r\n0\r\n\r\n';
    const [a, b] = parser.push(Buffer.from(chunked + response('busy', 'Connection: close\r\n').replace('200 OK', '503 Service Unavailable')));
    expect(a!.body.toString()).toBe('{"a":12}');
    expect(a!.close).toBe(false);
    expect(b!.status).toBe(503);
    expect(b!.close).toBe(true);
  });

  it('refuses what is not an HTTP/1.1 response, and a body it cannot frame', () => {
    expect(() => new ResponseParser().push(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow(/not an HTTP\/1.1 response/);
    expect(() => new ResponseParser().push(Buffer.from('HTTP/1.1 200 OK\r\n\r\nbody'))).toThrow(/neither Content-Length nor chunked/);
  });
});

/** A raw TCP server: `answer` sees each request's bytes and the socket, and answers (or not). */
function rawServer(answer: (socket: net.Socket, request: string, n: number) => void): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  let requests = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk) => answer(socket, chunk.toString('latin1'), ++requests));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        connections: () => connections,
        close: () => {
          for (const s of sockets) s.destroy();
          return new Promise<void>((done) => server.close(() => done()));
        },
      }),
    ),
  );
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

const url = (port: number) => new URL(`http://127.0.0.1:${port}/key`);
const call = (port: number, method: string) => requestText(requestHead(url(port)), JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }));

describe('the bench client: Connection', () => {
  it('sends a POST with the exact body length, and reuses one kept-alive socket', async () => {
    const seen: string[] = [];
    const server = await rawServer((socket, request, n) => {
      seen.push(request);
      socket.write(response(`{"n":${n}}`));
    });
    closers.push(server.close);
    const connection = new Connection('127.0.0.1', server.port);
    closers.push(async () => connection.close());
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await connection.send(call(server.port, 'eth_blockNumber'))).body.toString());
    expect(answers).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}']);
    expect(server.connections()).toBe(1);
    const body = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
    expect(seen[0]).toBe(`POST /key HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  });

  it('opens a new socket after the server answered with Connection: close, or closed an idle one', async () => {
    const server = await rawServer((socket, _request, n) => {
      if (n === 1) socket.end(response('{"n":1}', 'Connection: close\r\n'));
      else if (n === 2) socket.write(response('{"n":2}'), () => socket.destroy()); // then closes while idle
      else socket.write(response(`{"n":${n}}`));
    });
    closers.push(server.close);
    const connection = new Connection('127.0.0.1', server.port);
    closers.push(async () => connection.close());
    expect((await connection.send(call(server.port, 'a'))).body.toString()).toBe('{"n":1}');
    expect((await connection.send(call(server.port, 'b'))).body.toString()).toBe('{"n":2}');
    await new Promise((r) => setTimeout(r, 20)); // let the idle close arrive
    expect((await connection.send(call(server.port, 'c'))).body.toString()).toBe('{"n":3}');
    expect(server.connections()).toBe(3);
  });

  it('sends a request again, once, when a reused socket is closed before it is answered', async () => {
    // The server's idle timeout racing the next request: it closes the kept-alive socket without answering.
    const server = await rawServer((socket, _request, n) => {
      if (n === 2) socket.destroy();
      else socket.write(response(`{"n":${n}}`));
    });
    closers.push(server.close);
    const connection = new Connection('127.0.0.1', server.port);
    closers.push(async () => connection.close());
    expect((await connection.send(call(server.port, 'a'))).body.toString()).toBe('{"n":1}');
    expect((await connection.send(call(server.port, 'b'))).body.toString()).toBe('{"n":3}');
    expect(server.connections()).toBe(2);
  });

  it('fails a request on a new socket the server closes without answering, and one cut off mid-answer', async () => {
    const server = await rawServer((socket, _request, n) => {
      if (n === 1) socket.destroy();
      else socket.end(response('{"n":2}').slice(0, 60));
    });
    closers.push(server.close);
    const connection = new Connection('127.0.0.1', server.port);
    closers.push(async () => connection.close());
    await expect(connection.send(call(server.port, 'a'))).rejects.toThrow(/closed the connection before answering|ECONNRESET/);
    await expect(connection.send(call(server.port, 'b'))).rejects.toThrow(/closed the connection before answering/);
  });

  it('fails at once when nothing listens, refuses a second request in flight, and fails the one in flight on close', async () => {
    const server = await rawServer(() => undefined);
    const port = server.port;
    await server.close();
    const refused = new Connection('127.0.0.1', port);
    await expect(refused.send(call(port, 'a'))).rejects.toThrow(/ECONNREFUSED/);

    const silent = await rawServer(() => undefined);
    closers.push(silent.close);
    const busy = new Connection('127.0.0.1', silent.port);
    closers.push(async () => busy.close());
    const first = busy.send(call(silent.port, 'a'));
    await expect(busy.send(call(silent.port, 'b'))).rejects.toThrow(/already in flight/);
    busy.close();
    await expect(first).rejects.toThrow(/closed by the bench/);
  });
});

describe('the bench client: readLoad', () => {
  it('keeps one request in flight on each connection and counts every answer', async () => {
    let open = 0;
    let inFlight = 0;
    let most = 0;
    let answered = 0;
    const server = http.createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      req.resume();
      req.on('end', () =>
        setImmediate(() => {
          inFlight--;
          answered++;
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":"0x1"}');
        }),
      );
    });
    server.on('connection', () => open++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => server.close(() => r())));
    const port = (server.address() as net.AddressInfo).port;
    const result = await readLoad({ url: url(port), connections: 4, durationMs: 200, warmupMs: 50, body: (i) => `{"jsonrpc":"2.0","id":${i},"method":"x","params":[]}` });
    expect(open).toBe(4);
    expect(most).toBeLessThanOrEqual(4);
    expect(result.count).toBeGreaterThan(0);
    expect(result.count).toBeLessThanOrEqual(answered);
    expect(result.clientCpuUs).toBeGreaterThan(0);
  });

  it('fails the run on an answer that holds an error', async () => {
    const server = await rawServer((socket) => socket.write(response('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}')));
    closers.push(server.close);
    await expect(readLoad({ url: url(server.port), connections: 2, durationMs: 100, warmupMs: 0, body: '{}' })).rejects.toThrow(/error answer/);
  });
});
