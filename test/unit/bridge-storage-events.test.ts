import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { id } from 'ethers';
import { BRIDGE_ADDRESS } from '../../src/chain/base/addresses.js';
import { BRIDGE_EVENTS, bridgeEventTopic, bridgeLog, type BridgeEventName } from '../../src/chain/native/bridge/events.js';
import { BridgeStorage } from '../../src/chain/native/bridge/storage.js';
import { GENESIS_FEDERATION } from '../../src/chain/native/bridge/federation.js';

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
  // rootstock-integration-tests lib/constants/pegin-constants.js and pegout-constants.js.
  const RIT: Record<Exclude<BridgeEventName, keyof typeof UNION>, string> = {
    pegin_btc: '0x44cdc782a38244afd68336ab92a0b39f864d6c0b2a50fa1da58cafc93cd2ae5a',
    rejected_pegin: '0x708ce1ead20561c5894a93be3fee64b326b2ad6c198f8253e4bb56f1626053d6',
    unrefundable_pegin: '0x35be155c87e408cbbcb753dc12f95fc5a242a29460a3d7189e807e63d7c185a7',
    release_request_received: '0x1a4457a4460d48b40c5280955faf8e4685fa73f0866f7d8f573bdd8e64aca5b1',
    release_request_rejected: '0xb607c3e1fbe6b38cd145b15b837f7b722b199caa60e3057b36c141adee3b75e7',
    release_requested: '0x7a7c29481528ac8c2b2e93aee658fddd4dc15304fa723a5c2b88514557bcc790',
    pegout_transaction_created: '0x9ee5d520fd5e6eaea3fd2e3ae4e35e9a9c0fb05c9d8f84b507f287da84b5117c',
    batch_pegout_created: '0x483d0191cc4e784b04a41f6c4801a0766b43b1fdd0b9e3e6bfdca74e5b05c2eb',
    pegout_confirmed: '0xc287f602476eeef8a547a3b82e79045c827c51362ff153f728b6d839bad099ef',
    add_signature: '0x83b6efe3a7d95459577ec9396f5d6f1e486ca2378130e2ba4d98a4da108ca743',
    release_btc: '0x655929b56d5c5a24f81ee80267d5151b9d680e7e703387999922e9070bc98a02',
    update_collections: '0x1069152f4f916cbf155ee32a695d92258481944edb5b6fd649718fc1b43e515e',
  };

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
