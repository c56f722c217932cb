/**
 * The node under fuzz, in its own process so that the fuzzer's own work (building 15 MB bodies)
 * never counts as the node's stall, and a crash is seen as an exit. It reports over IPC its URL,
 * then on each 'gap' message the longest event-loop stall since the previous one.
 */
import { createNode } from '../../src/index.js';

const TICK_MS = 5;
const key = process.argv[2] ?? 'fuzz-key';
const node = await createNode({ inMemory: true, logLevel: 'silent', apiKeys: [{ key, network: 'testnet' }] });
const server = await node.server(0);

let last = performance.now();
let gap = 0;
setInterval(() => {
  const now = performance.now();
  gap = Math.max(gap, now - last - TICK_MS);
  last = now;
}, TICK_MS);

process.on('message', (m) => {
  if (m === 'gap') {
    process.send!({ gap });
    gap = 0;
  } else if (m === 'close') {
    void node.close().then(() => process.exit(0));
  }
});
process.send!({ url: server.url });
