// The bench's calibration row: a bare node:http server that answers every POST with one fixed
// JSON-RPC result, in its own process. No node can answer faster through node:http, so its
// throughput under the bench's client is the ceiling of node:http on this machine: a node that
// reads close to it is held back by node:http itself (the client is not the limit: anvil reads
// faster than this row; issue 25).
// Run: node scripts/bench/bare-server.mjs <port>
import http from 'node:http';

const port = Number(process.argv[2]);
const BODY = '{"jsonrpc":"2.0","id":1,"result":"0x1"}';
const HEADERS = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) };

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, HEADERS);
    res.end(BODY);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
