/**
 * The Bitcoin regtest chain off the start-up path (btc-chain/btc-chain.ts): the premine is built on
 * first use and never stored, blocks mined above it are stored and read back, data directories that
 * hold the premine still open, and a rewind that changes nothing keeps the chain as it is.
 */
import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { BtcChain, type BtcPersistence, scriptOfAddress } from '../../src/chain/btc-chain/btc-chain.js';
import { encodeStoredBlock } from '../../src/chain/btc-chain/block.js';
import { FAUCET_PRIVATE_KEY, FAUCET_PUBLIC_KEY, PREMINED_BLOCKS } from '../../src/chain/btc-chain/constants.js';

/** The store's Bitcoin records in a map, with a count of the blocks read. */
class MapPersistence implements BtcPersistence {
  readonly blocks = new Map<number, Uint8Array>();
  tip: number | undefined;
  reads = 0;

  async btcTip() {
    return this.tip;
  }

  async btcBlocks(from: number, tip: number) {
    const out: Uint8Array[] = [];
    for (let h = from; h <= tip; h++) out.push(this.blocks.get(h)!);
    this.reads += out.length;
    return out;
  }

  async appendBtcBlocks(from: number, blocks: readonly Uint8Array[]) {
    blocks.forEach((b, i) => this.blocks.set(from + i, b));
    this.tip = from + blocks.length - 1;
  }
}

const NOW = () => 1_700_000_000_000;

describe('the Bitcoin chain built on first use', () => {
  it('writes out the faucet public key its private key derives', () => {
    expect(bytesToHex(FAUCET_PUBLIC_KEY)).toBe(bytesToHex(secp256k1.getPublicKey(FAUCET_PRIVATE_KEY, true)));
  });

  it('stores nothing for a new chain and still has the 101 premined blocks, the same on every chain', async () => {
    const store = new MapPersistence();
    const a = await BtcChain.open(store, NOW);
    const b = await BtcChain.open(new MapPersistence(), NOW);
    expect(a.height).toBe(PREMINED_BLOCKS);
    expect(a.save()).toEqual({ tip: PREMINED_BLOCKS, pool: [] });
    expect(store.blocks.size).toBe(0);
    expect(store.tip).toBeUndefined();
    expect(a.tip.height).toBe(PREMINED_BLOCKS);
    expect(bytesToHex(a.tip.hash)).toBe(bytesToHex(b.tip.hash));
    expect(a.blockAt(0)!.transactions).toHaveLength(1);
    // The premine's first coinbases have matured: the faucet can pay at once.
    expect(a.faucetCoins().length).toBeGreaterThan(0);
  });

  it('stores the blocks mined above the premine and reads only those back', async () => {
    const store = new MapPersistence();
    const chain = await BtcChain.open(store, NOW);
    await chain.mine(3);
    expect([...store.blocks.keys()]).toEqual([102, 103, 104]);
    const reopened = await BtcChain.open(store, NOW);
    expect(store.reads).toBe(3);
    expect(reopened.height).toBe(104);
    expect(bytesToHex(reopened.tip.hash)).toBe(bytesToHex(chain.tip.hash));
    expect(bytesToHex(reopened.blockAt(103)!.hash)).toBe(bytesToHex(chain.blockAt(103)!.hash));
  });

  it('opens a data directory that stored the premine too (the earlier layout)', async () => {
    const fresh = await BtcChain.open(new MapPersistence(), NOW);
    await fresh.mine(1);
    const old = new MapPersistence();
    for (let h = 0; h <= PREMINED_BLOCKS + 1; h++) old.blocks.set(h, encodeStoredBlock(fresh.blockAt(h)!));
    old.tip = PREMINED_BLOCKS + 1;
    const chain = await BtcChain.open(old, NOW);
    expect(old.reads).toBe(1);
    expect(bytesToHex(chain.tip.hash)).toBe(bytesToHex(fresh.tip.hash));
  });

  it('keeps the chain as it is when a rewind changes nothing, and follows one that does', async () => {
    const chain = await BtcChain.open(new MapPersistence(), NOW);
    const snapshot = chain.save();
    const tip = chain.tip;
    chain.rewound(snapshot);
    expect(chain.tip).toBe(tip);
    // A pooled faucet payment is undone by a rewind to before it, the mined blocks stay.
    const tx = chain.fund(scriptOfAddress(chain.faucet.address), 10_000n);
    expect(chain.transaction(tx.txid)).toBeDefined();
    chain.rewound(snapshot);
    expect(chain.transaction(tx.txid)).toBeUndefined();
    expect(chain.tip).toBe(tip);
    // Mined blocks above the snapshot go.
    await chain.mine(2);
    chain.rewound(snapshot);
    expect(chain.height).toBe(PREMINED_BLOCKS);
    expect(bytesToHex(chain.tip.hash)).toBe(bytesToHex(tip.hash));
  });

  it('follows a rewind before it is built', async () => {
    const store = new MapPersistence();
    await (await BtcChain.open(store, NOW)).mine(2);
    const chain = await BtcChain.open(store, NOW);
    expect(chain.height).toBe(PREMINED_BLOCKS + 2);
    chain.rewound({ tip: PREMINED_BLOCKS + 1, pool: [] });
    expect(chain.height).toBe(PREMINED_BLOCKS + 1);
    expect(chain.tip.height).toBe(PREMINED_BLOCKS + 1);
    expect(chain.blockAt(PREMINED_BLOCKS + 2)).toBeUndefined();
  });
});
