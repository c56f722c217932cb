// What our own code costs per RPC request, without node:http's parser and socket (issue 25). The
// built node (dist/, `npm run build`) runs in this process; its HTTP request listener is called
// with a stand-in request (an EventEmitter that emits the body and 'end') and a response that
// keeps nothing: gate, dispatcher, handler, envelope and respond() run as they do under load, for
// the operator's key or a dashboard user's (quota and usage counting on).
//
//   node scripts/profile/profile-listener.mjs [--root DIR] [--method blockNumber|getBalance|userBlockNumber] [--rounds 3] [--count 200000]
//       CPU ns per request (process.cpuUsage; moves with the machine's load)
//   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/cg/callgrind.out.%p \
//       node scripts/profile/profile-listener.mjs --callgrind /tmp/cg [--method ...] [--count 20000]
//       instructions per request (callgrind, switched on for the measured loop only; load-independent)
//
// --root: another checkout's built dist/ (to compare with an older commit, built there).
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: '.' },
    method: { type: 'string', default: 'blockNumber' },
    rounds: { type: 'string', default: '3' },
    count: { type: 'string' },
    callgrind: { type: 'string' },
  },
});
/** Requests answered before measuring: the listener's functions reach V8's optimizing compiler. */
const WARM_UP = 60_000;
/** Far above any day's requests here: the quota never refuses. */
const DAILY_LIMIT = 1e9;
const OPERATOR_KEY = 'profile-listener';
const BALANCE_OF = '0x7986b3df570230288501eea3d890bd66948c9b79';
const BODIES = {
  blockNumber: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
  getBalance: `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["${BALANCE_OF}","latest"]}`,
  userBlockNumber: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
};
const body = Buffer.from(BODIES[values.method] ?? '');
if (body.length === 0) throw new Error(`--method: one of ${Object.keys(BODIES).join(', ')}`);

// The node's server is made by node:http's createServer: keep the listener it is given.
let listener;
const createServer = http.createServer;
http.createServer = (options, handler) => {
  listener = handler;
  return createServer(options, handler);
};
syncBuiltinESMExports();
const { createNode } = await import(join(resolve(values.root), 'dist/index.js'));
const node = await createNode({ inMemory: true, logLevel: 'silent', dailyLimit: DAILY_LIMIT, apiKeys: [{ key: OPERATOR_KEY, network: 'testnet' }] });
const { url } = await node.server(0);
const path = values.method === 'userBlockNumber' ? `/${await userKey(url)}` : `/${OPERATOR_KEY}`;

/** Signs up a dashboard user and makes a key, as the bench's "user key" row does. */
async function userKey(base) {
  const credentials = JSON.stringify({ email: 'profile@example.com', password: 'profile-password' });
  const json = { 'content-type': 'application/json' };
  await fetch(`${base}/api/signup`, { method: 'POST', headers: json, body: credentials });
  const login = await fetch(`${base}/api/login`, { method: 'POST', headers: json, body: credentials });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const created = await fetch(`${base}/api/keys`, { method: 'POST', headers: { ...json, cookie }, body: JSON.stringify({ name: 'profile', network: 'testnet' }) });
  return (await created.json()).key;
}

const socket = { remoteAddress: '127.0.0.1' };
let answered = 0;
const response = {
  writeHead() {
    return this;
  },
  end(text) {
    if (!text.includes('"result"')) throw new Error(`an error answer: ${text}`);
    answered++;
  },
  destroy() {},
};

function request() {
  const req = new EventEmitter();
  req.method = 'POST';
  req.url = path;
  req.headers = {};
  req.socket = socket;
  listener(req, response);
  req.emit('data', body);
  req.emit('end');
}

/** `count` requests, with a tick between every 1,000 (a dashboard key's counts are written on timers). */
async function run(count) {
  for (let i = 0; i < count; i++) {
    request();
    if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
  }
}

await run(WARM_UP);
if (values.callgrind !== undefined) {
  const count = Number(values.count ?? 20_000);
  execFileSync('callgrind_control', ['-i', 'on', String(process.pid)]);
  await run(count);
  execFileSync('callgrind_control', ['-d', String(process.pid)]);
  execFileSync('callgrind_control', ['-i', 'off', String(process.pid)]);
  const summary = /^summary: (\d+)/m.exec(readFileSync(join(values.callgrind, `callgrind.out.${process.pid}.1`), 'utf8'));
  console.log(`${values.method} (${values.root}): ${Math.round(Number(summary[1]) / count)} instructions/request (callgrind)`);
} else {
  const count = Number(values.count ?? 200_000);
  for (let round = 0; round < Number(values.rounds); round++) {
    const start = process.cpuUsage();
    await run(count);
    const used = process.cpuUsage(start);
    console.log(`${values.method} (${values.root}): ${Math.round(((used.user + used.system) * 1000) / count)} ns/request (CPU)`);
  }
}
if (answered === 0) throw new Error('nothing answered');
await node.close();
process.exit(0);
