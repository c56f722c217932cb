/**
 * `npx tsx scripts/profile/trie-writes-measure.ts [--blocks N] [--baseline]`: the state trie nodes each
 * ERC20 transfer block stores, how many of them the block's state root references, and the CPU
 * time (process.cpuUsage: the machine is shared, wall clock is not trusted) per block, all of it
 * and the state manager's commits' (where the tries are written), for the
 * miner's one-pass trie update (tracking-state-manager.ts, DirectPathTrie.update). `--baseline`
 * puts back what it replaced, in this process only: ethereumjs' flush (a put per key) and its
 * CheckpointDB (which stores again every node read inside the block's checkpoint).
 * Each block is one transfer to a new holder, sent and mined in-process (automine, in memory).
 * Numbers for docs; never part of `npm test`.
 */
import { CheckpointDB, MerklePatriciaTrie, decodeMPTNode, decodeRawMPTNode, BranchMPTNode, ExtensionMPTNode, LeafMPTNode, type MPTNode } from '@ethereumjs/mpt';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, createAccountFromRLP } from '@ethereumjs/util';
import { parseArgs } from 'node:util';
import { Interface, Wallet } from 'ethers';
import { createNode } from '../../src/index.js';
import { StateDb } from '../../src/chain/storage/state-db.js';
import { ChangeTrackingStateManager } from '../../src/chain/state/tracking-state-manager.js';
import { DirectPathTrie } from '../../src/chain/state/trie.js';
import { contracts } from '../../test/fixtures/contracts.js';

const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const GAS_PRICE = 70_000_000n;
/** Trie nodes are stored under their 32-byte hash (64 hex characters); codes under a prefixed key. */
const NODE_KEY_LENGTH = 64;

const { values } = parseArgs({ options: { blocks: { type: 'string', default: '300' }, baseline: { type: 'boolean', default: false } } });

if (values.baseline) {
  const flushes = ChangeTrackingStateManager.prototype as unknown as { flushInBatches: () => Promise<void> };
  flushes.flushInBatches = function (this: MerkleStateManager) {
    return MerkleStateManager.prototype.flush.call(this);
  };
  DirectPathTrie.prototype.database = function (this: DirectPathTrie, db, valueEncoding) {
    return MerklePatriciaTrie.prototype.database.call(this, db, valueEncoding);
  };
  if (!(new DirectPathTrie({}).database() instanceof CheckpointDB)) throw new Error('baseline not in place');
}

/**
 * CPU spent in the state manager's commits: the block's one at checkpoint depth 0 is where the
 * trie is written (the trie's checkpoint committed, then the flush), the transactions' are small.
 */
let commitMicros = 0;
const commit = MerkleStateManager.prototype.commit;
ChangeTrackingStateManager.prototype.commit = async function (this: ChangeTrackingStateManager) {
  const started = process.cpuUsage();
  try {
    return await commit.call(this);
  } finally {
    const { user, system } = process.cpuUsage(started);
    commitMicros += user + system;
  }
};

/** Every block's stored state, keyed by node hash (hex), as the chain store takes it. */
const batches: Array<Map<string, Uint8Array>> = [];
const takePending = StateDb.prototype.takePending;
StateDb.prototype.takePending = function (this: StateDb) {
  const taken = takePending.call(this);
  const nodes = new Map<string, Uint8Array>();
  for (const [i, key] of taken.keys.entries()) if (key.length === NODE_KEY_LENGTH) nodes.set(key, taken.ops[i]!.value);
  batches.push(nodes);
  return taken;
};

/**
 * Of a block's stored nodes, the ones its state root references: a node the block stored is
 * reachable only through nodes it stored (their hashes changed), so the walk stays among them.
 */
function referenced(stateRoot: string, stored: Map<string, Uint8Array>): number {
  const seen = new Set<string>();
  const visit = (node: MPTNode, accounts: boolean) => {
    if (node instanceof BranchMPTNode) for (const [, child] of node.getChildren()) follow(child as Uint8Array | Uint8Array[], accounts);
    else if (node instanceof ExtensionMPTNode) follow(node.value() as Uint8Array | Uint8Array[], accounts);
    else if (accounts && node instanceof LeafMPTNode) follow(createAccountFromRLP(node.value()).storageRoot, false);
  };
  const follow = (ref: Uint8Array | Uint8Array[], accounts: boolean) => {
    if (!(ref instanceof Uint8Array)) return visit(decodeRawMPTNode(ref), accounts);
    const key = bytesToHex(ref).slice(2);
    const encoded = stored.get(key);
    if (encoded === undefined || seen.has(key)) return;
    seen.add(key);
    visit(decodeMPTNode(encoded), accounts);
  };
  follow(Uint8Array.from(Buffer.from(stateRoot.slice(2), 'hex')), true);
  return seen.size;
}

const node = await createNode({ inMemory: true, logLevel: 'silent' });
const request = (method: string, params: unknown[]) => node.provider.request({ method, params });
const wallet = new Wallet(COW_KEY);
const send = async (nonce: number, to: string | null, data: string) =>
  request('eth_sendRawTransaction', [await wallet.signTransaction({ type: 0, chainId: 31, nonce, gasPrice: GAS_PRICE, gasLimit: 1_000_000n, to, data, value: 0n })]) as Promise<string>;
const token = new Interface(contracts.Token.abi);
const deploy = await send(0, null, contracts.Token.bytecode + token.encodeDeploy([10n ** 24n]).slice(2));
const { contractAddress } = (await request('eth_getTransactionReceipt', [deploy])) as { contractAddress: string };

const blocks = Number(values.blocks);
const first = batches.length;
commitMicros = 0;
const cpu = process.cpuUsage();
for (let i = 1; i <= blocks; i++) await send(i, contractAddress, token.encodeFunctionData('transfer', [`0x${(0x1000 + i).toString(16).padStart(40, '0')}`, 1n]));
const { user, system } = process.cpuUsage(cpu);

const mined = batches.slice(first);
let stored = 0;
let reachable = 0;
const head = Number(((await request('eth_blockNumber', [])) as string));
for (const [i, nodes] of mined.entries()) {
  const block = (await request('eth_getBlockByNumber', [`0x${(head - mined.length + 1 + i).toString(16)}`, false])) as { stateRoot: string };
  stored += nodes.size;
  reachable += referenced(block.stateRoot, nodes);
}
await node.close();
const perBlock = (n: number) => (n / mined.length).toFixed(2);
console.log(JSON.stringify({
  mode: values.baseline ? 'baseline (ethereumjs flush and CheckpointDB)' : 'one trie update per block',
  blocks: mined.length,
  nodesStoredPerBlock: perBlock(stored),
  nodesReferencedByTheBlockRootPerBlock: perBlock(reachable),
  unreferencedShare: ((stored - reachable) / stored).toFixed(3),
  cpuMsPerBlock: ((user + system) / 1000 / mined.length).toFixed(3),
  commitCpuMsPerBlock: (commitMicros / 1000 / mined.length).toFixed(3),
}));
