/**
 * Each mined block stores exactly the trie nodes its state root references that no earlier state
 * had: the miner updates each trie once per block (DirectPathTrie.update) and no longer stores
 * again the nodes it read inside the block's checkpoint (checkpoint-db.ts). ethereumjs' flush stored
 * every intermediate path of a put per key, a quarter of an ERC20 transfer block's nodes never
 * referenced by any root (scripts/profile/trie-writes-measure.ts).
 */
import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode } from '@ethereumjs/mpt';
import { KECCAK256_RLP, ValueEncoding, bytesToHex, createAccountFromRLP, hexToBytes } from '@ethereumjs/util';
import { Contract, ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { DirectPathTrie } from '../../src/chain/state/trie.js';
import type { StateDb } from '../../src/chain/storage/state-db.js';
import { contracts } from '../fixtures/contracts.js';
import { COW, nodesClosedAfterEach } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const TRANSFERS = 12;

/** The stored nodes (hex hashes) a state root references: its account trie's and every storage trie's. */
async function reachable(db: StateDb, stateRoot: Uint8Array): Promise<Set<string>> {
  const found = new Set<string>();
  const trie = new DirectPathTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes });
  const visit = async (ref: Uint8Array | Uint8Array[], accounts: boolean): Promise<void> => {
    if (ref instanceof Uint8Array) {
      const key = bytesToHex(ref).slice(2);
      if (found.has(key)) return;
      found.add(key);
    }
    const node = await trie.lookupNode(ref);
    if (node instanceof BranchMPTNode) for (const [, child] of node.getChildren()) await visit(child as Uint8Array | Uint8Array[], accounts);
    else if (node instanceof ExtensionMPTNode) await visit(node.value() as Uint8Array | Uint8Array[], accounts);
    else if (accounts && node instanceof LeafMPTNode) {
      const { storageRoot } = createAccountFromRLP(node.value());
      if (bytesToHex(storageRoot) !== bytesToHex(KECCAK256_RLP)) await visit(storageRoot, false);
    }
  };
  await visit(stateRoot, true);
  return found;
}

describe('trie nodes stored per block', () => {
  it('ERC20 transfer blocks store exactly the nodes of their new state that were not stored before', async () => {
    const t = await start();
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet);
    const token = (await (await factory.deploy(10n ** 24n)).waitForDeployment()) as Contract;

    const db = (t.node.chains.testnet as unknown as { store: { stateDb: StateDb } }).store.stateDb;
    const stored: string[][] = [];
    const takePending = db.takePending.bind(db);
    db.takePending = () => {
      const taken = takePending();
      stored.push(taken.keys.filter((key) => key.length === 64));
      return taken;
    };
    const rootOf = async (tag: string) => hexToBytes((await provider.send('eth_getBlockByNumber', [tag, false])).stateRoot);
    // Every node stored so far belongs to some earlier state: nothing is ever stored unreferenced.
    const known = await reachable(db, await rootOf('latest'));
    for (let i = 0; i < TRANSFERS; i++) {
      await (await token.transfer!(`0x${(0x5000 + i).toString(16).padStart(40, '0')}`, 1000n + BigInt(i))).wait();
      const now = await reachable(db, await rootOf('latest'));
      const fresh = [...now].filter((key) => !known.has(key));
      const written = stored.splice(0).flat();
      expect(written.length, `block ${i}: each node once`).toBe(new Set(written).size);
      expect(new Set(written), `block ${i}`).toEqual(new Set(fresh));
      for (const key of now) known.add(key);
    }
    expect(await token.balanceOf!(`0x${(0x5000).toString(16).padStart(40, '0')}`)).toBe(1000n);
  });
});
