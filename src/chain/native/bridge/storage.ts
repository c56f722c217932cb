/**
 * The Bridge's own storage: named byte strings (rskj BridgeStorageProvider keeps each of its
 * entries, "newFederationBtcUTXOs", "releaseRequestQueue", "btcTxHashesAP", ..., as one
 * arbitrary-length value under a key derived from the name, in the Unitrie).
 *
 * Our state trie holds 32-byte words, so each named value is laid out as Solidity lays out a
 * `bytes` state variable (its length and data at keccak-derived slots) in the Bridge account's
 * storage. Keeping the peg's state in the state trie is what makes it follow every state
 * operation for free: a reverted transaction, evm_snapshot/evm_revert, evm_reset, state dumps,
 * eth_getProof. The slots are ours, not rskj's: eth_getStorageAt on the Bridge answers differently
 * from rskj (whose keys and values are Unitrie-specific), as every storage root here does.
 *
 * Layout of the value named N (head = keccak256(utf8(N))):
 * - empty: head is zero (an absent value reads as empty, as rskj treats a missing entry);
 * - 1-31 bytes: head = data left-aligned, low byte = 2 x length;
 * - 32 bytes or more: head = 2 x length + 1, data in 32-byte words at keccak256(head) + i.
 * Writes read the old value's length first and clear the words it no longer uses.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { BRIDGE_ADDRESS } from '../../base/addresses.js';

const WORD = 32;
const BRIDGE = new Address(BRIDGE_ADDRESS);
const utf8 = new TextEncoder();
const EMPTY = new Uint8Array(0);

function slot(n: bigint): Uint8Array {
  return setLengthLeft(bigIntToBytes(n), WORD);
}

/** What BridgeStorage reads a state through: the executing state, or a block's state for eth_bridgeState. */
export type BridgeStateAccess = Pick<MerkleStateManager, 'getAccount' | 'getStorage'> &
  Partial<Pick<MerkleStateManager, 'putAccount' | 'putStorage'>>;

/** The Bridge's named values in the executing state. One per native call; holds nothing itself. */
export class BridgeStorage {
  constructor(private readonly state: BridgeStateAccess) {}

  private async word(key: Uint8Array): Promise<Uint8Array> {
    return setLengthLeft(await this.state.getStorage(BRIDGE, key), WORD);
  }

  private async putWord(key: Uint8Array, value: Uint8Array): Promise<void> {
    // ethereumjs stores a word without its leading zeros and deletes an all-zero one.
    if (this.state.putStorage === undefined) throw new Error('BridgeStorage: a read-only state');
    await this.state.putStorage(BRIDGE, key, value);
  }

  /** The value named `name`; empty when never set or cleared. */
  async get(name: string): Promise<Uint8Array> {
    if ((await this.state.getAccount(BRIDGE)) === undefined) return EMPTY;
    const headKey = keccak_256(utf8.encode(name));
    const head = await this.word(headKey);
    const { length, long } = decodeHead(head);
    if (length === 0) return EMPTY;
    if (!long) return head.slice(0, length);
    const out = new Uint8Array(length);
    const base = bytesToBigInt(keccak_256(headKey));
    for (let i = 0; i * WORD < length; i++) {
      const word = await this.word(slot(base + BigInt(i)));
      out.set(word.subarray(0, Math.min(WORD, length - i * WORD)), i * WORD);
    }
    return out;
  }

  /** Sets the value named `name` (empty clears it). */
  async set(name: string, value: Uint8Array): Promise<void> {
    if ((await this.state.getAccount(BRIDGE)) === undefined) await this.state.putAccount?.(BRIDGE, new Account());
    const headKey = keccak_256(utf8.encode(name));
    const old = decodeHead(await this.word(headKey));
    const base = bytesToBigInt(keccak_256(headKey));
    const oldWords = old.long ? Math.ceil(old.length / WORD) : 0;
    const newWords = value.length >= WORD ? Math.ceil(value.length / WORD) : 0;
    for (let i = newWords; i < oldWords; i++) await this.putWord(slot(base + BigInt(i)), EMPTY);
    if (value.length === 0) {
      await this.putWord(headKey, EMPTY);
    } else if (value.length < WORD) {
      const head = new Uint8Array(WORD);
      head.set(value);
      head[WORD - 1] = value.length * 2;
      await this.putWord(headKey, head);
    } else {
      await this.putWord(headKey, slot(BigInt(value.length) * 2n + 1n));
      for (let i = 0; i < newWords; i++) {
        const word = new Uint8Array(WORD);
        word.set(value.subarray(i * WORD, Math.min(value.length, (i + 1) * WORD)));
        await this.putWord(slot(base + BigInt(i)), word);
      }
    }
  }
}

function decodeHead(head: Uint8Array): { length: number; long: boolean } {
  const last = head[WORD - 1]!;
  if ((last & 1) === 0) return { length: last >> 1, long: false };
  return { length: Number((bytesToBigInt(head) - 1n) / 2n), long: true };
}
