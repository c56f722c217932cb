import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { id } from 'ethers';
import { BRIDGE_ADDRESS } from '../../src/chain/base/addresses.js';
import { BRIDGE_EVENTS, bridgeEventTopic, bridgeLog, type BridgeEventName } from '../../src/chain/native/bridge/events.js';
import { BridgeStorage } from '../../src/chain/native/bridge/storage.js';
import { GENESIS_FEDERATION } from '../../src/chain/native/bridge/federation.js';
import { RIT_BRIDGE_TOPICS } from '../fixtures/rit-bridge-topics.js';

const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 7 + seed) & 0xff || 1);

describe('the Bridge storage (named values in the Bridge account)', () => {
  it('reads back every length it wrote, empty when never set', async () => {
    const storage = new BridgeStorage(new MerkleStateManager());
    expect(await storage.get('releaseRequestQueue')).toEqual(new Uint8Array(0));
    for (const length of [1, 30, 31, 32, 33, 64, 65, 1000]) {
      const value = bytes(length, length);
      value[0] = 0; // a leading zero byte survives (the trie strips a word's leading zeros)
      value[length - 1] = 0; // and a trailing one
      await storage.set(`v${length}`, value);
      expect(bytesToHex(await storage.get(`v${length}`))).toBe(bytesToHex(value));
    }
  });

  it('a shorter value clears the words the longer one used, and empty clears the value', async () => {
    const bridge = new Address(BRIDGE_ADDRESS);
    const words = async (state: MerkleStateManager) => {
      await state.flush();
      return state.dumpStorage(bridge);
    };
    const alone = new MerkleStateManager();
    await new BridgeStorage(alone).set('q', bytes(40, 9));

    const state = new MerkleStateManager();
    const storage = new BridgeStorage(state);
    await storage.set('q', bytes(200, 3));
    expect(Object.keys(await words(state))).toHaveLength(1 + 7);
    await storage.set('q', bytes(40, 9));
    expect(bytesToHex(await storage.get('q'))).toBe(bytesToHex(bytes(40, 9)));
    // The same words as writing the short value alone: nothing of the long one is left behind.
    expect(await words(state)).toEqual(await words(alone));
    await storage.set('q', new Uint8Array(0));
    expect(await storage.get('q')).toEqual(new Uint8Array(0));
    expect(await words(state)).toEqual({});
  });
});

describe('the Bridge events', () => {
  // rootstock-integration-tests' topics; the type makes the table cover every event but RSKIP502's.
  const RIT: Record<Exclude<BridgeEventName, keyof typeof UNION>, string> = RIT_BRIDGE_TOPICS;

  // RSKIP502's events (rskj BridgeEvents UNION_*): RIT finds them by name through the ABI, so their
  // topics are computed here with ethers from rskj's parameter lists.
  const UNION = {
    union_bridge_locking_cap_increased: id('union_bridge_locking_cap_increased(address,uint256,uint256)'),
    union_rbtc_requested: id('union_rbtc_requested(address,uint256)'),
    union_rbtc_released: id('union_rbtc_released(address,uint256)'),
    union_bridge_transfer_permissions_updated: id('union_bridge_transfer_permissions_updated(address,bool,bool)'),
  } as const;

  it('topic 0 of each event is the hash the integration tests expect', () => {
    const expected: Record<string, string> = { ...RIT, ...UNION };
    expect(Object.keys(BRIDGE_EVENTS).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, hash] of Object.entries(expected)) expect(bytesToHex(bridgeEventTopic(name as BridgeEventName)), name).toBe(hash);
  });

  it('puts indexed values in topics and the rest in the data', () => {
    const receiver = bytes(20, 1);
    const btcTx = bytes(32, 2);
    const [address, topics, data] = bridgeLog('pegin_btc', [receiver, btcTx], [600_000n, 1n]);
    expect(bytesToHex(address)).toBe('0x0000000000000000000000000000000001000006');
    expect(topics.map(bytesToHex)).toEqual([RIT.pegin_btc, `0x${'00'.repeat(12)}${bytesToHex(receiver).slice(2)}`, bytesToHex(btcTx)]);
    expect(bytesToHex(data)).toBe(`0x${600_000n.toString(16).padStart(64, '0')}${'1'.padStart(64, '0')}`);
    expect(() => bridgeLog('pegin_btc', [receiver], [1n, 1n])).toThrow(/indexed/);
  });
});

describe('the federation UTXOs the Bridge records', () => {
  it('round-trips through the Bridge storage, order kept, and clears', async () => {
    const { readFederationUtxos, writeFederationUtxos } = await import('../../src/chain/native/bridge/utxos.js');
    const storage = new BridgeStorage(new MerkleStateManager());
    expect(await readFederationUtxos(storage)).toEqual([]);
    const utxos = [
      { txid: bytes(32, 5), vout: 0, value: 500_000n, height: 104, script: bytes(23, 6), redeemScript: GENESIS_FEDERATION.redeemScript },
      // A Flyover UTXO keeps its own redeem script.
      { txid: bytes(32, 7), vout: 3, value: 2_100_000_000_000_000n, height: 0, script: bytes(23, 6), redeemScript: bytes(200, 8) },
    ];
    await writeFederationUtxos(storage, utxos);
    expect(await readFederationUtxos(storage)).toEqual(utxos);
    await writeFederationUtxos(storage, []);
    expect(await readFederationUtxos(storage)).toEqual([]);
  });

  it('reads a UTXO stored before Flyover (five fields, no redeem script) as spent with the federation\'s redeem script', async () => {
    const { ACTIVE_FEDERATION_UTXOS_KEY, readFederationUtxos } = await import('../../src/chain/native/bridge/utxos.js');
    const storage = new BridgeStorage(new MerkleStateManager());
    await storage.set(ACTIVE_FEDERATION_UTXOS_KEY, RLP.encode([[bytes(32, 5), 1, 500_000, 104, bytes(23, 6)]]));
    const [utxo] = await readFederationUtxos(storage);
    expect(utxo).toEqual({ txid: bytes(32, 5), vout: 1, value: 500_000n, height: 104, script: bytes(23, 6), redeemScript: GENESIS_FEDERATION.redeemScript });
  });
});
