/**
 * The Bridge's events (rskj co/rsk/peg/BridgeEvents.java, logged by
 * utils/BridgeEventLoggerImpl.java), emitted from the Bridge's address. Topic 0 is the keccak-256
 * of the signature, as for any Solidity event; test/unit/bridge-events.test.ts holds them to the
 * hashes in rootstock-integration-tests (lib/constants/pegin-constants.js, pegout-constants.js).
 *
 * Bitcoin transaction hashes in topics and data are bitcoinj's Sha256Hash.getBytes(): the display
 * (byte-reversed) order, as block explorers print them. Amounts follow rskj master: satoshis in
 * peg-in events and release_requested, wei in the peg-out request events (RSKIP427).
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { BRIDGE_ADDRESS } from '../../base/addresses.js';
import { encodeAbi, type AbiType, type AbiValue } from '../abi.js';

/** A log as native contracts return it (NativeResult.logs). */
export type BridgeLog = [address: Uint8Array, topics: Uint8Array[], data: Uint8Array];

interface EventShape {
  /** Indexed parameters, in order: they become topics 1.. (each a 32-byte word). */
  indexed: readonly ('address' | 'bytes32')[];
  /** The others, ABI-encoded together as the data. */
  data: readonly AbiType[];
  signature: string;
}

function shape(name: string, params: readonly [string, boolean][]): EventShape {
  return {
    indexed: params.filter(([, i]) => i).map(([t]) => t as 'address' | 'bytes32'),
    data: params.filter(([, i]) => !i).map(([t]) => t as AbiType),
    signature: `${name}(${params.map(([t]) => t).join(',')})`,
  };
}

/** rskj BridgeEvents: name -> [type, indexed] per parameter, in the signature's order. */
export const BRIDGE_EVENTS = {
  pegin_btc: shape('pegin_btc', [['address', true], ['bytes32', true], ['int256', false], ['int256', false]]),
  rejected_pegin: shape('rejected_pegin', [['bytes32', true], ['int256', false]]),
  unrefundable_pegin: shape('unrefundable_pegin', [['bytes32', true], ['int256', false]]),
  release_request_received: shape('release_request_received', [['address', true], ['string', false], ['uint256', false]]),
  release_request_rejected: shape('release_request_rejected', [['address', true], ['uint256', false], ['int256', false]]),
  release_requested: shape('release_requested', [['bytes32', true], ['bytes32', true], ['uint256', false]]),
  pegout_transaction_created: shape('pegout_transaction_created', [['bytes32', true], ['bytes', false]]),
  batch_pegout_created: shape('batch_pegout_created', [['bytes32', true], ['bytes', false]]),
  pegout_confirmed: shape('pegout_confirmed', [['bytes32', true], ['uint256', false]]),
  add_signature: shape('add_signature', [['bytes32', true], ['address', true], ['bytes', false]]),
  release_btc: shape('release_btc', [['bytes32', true], ['bytes', false]]),
  update_collections: shape('update_collections', [['address', false]]),
  // RSKIP502, the Union Bridge (BridgeEvents UNION_*; logged by union.ts).
  union_bridge_locking_cap_increased: shape('union_bridge_locking_cap_increased', [['address', true], ['uint256', false], ['uint256', false]]),
  union_rbtc_requested: shape('union_rbtc_requested', [['address', true], ['uint256', false]]),
  union_rbtc_released: shape('union_rbtc_released', [['address', true], ['uint256', false]]),
  union_bridge_transfer_permissions_updated: shape('union_bridge_transfer_permissions_updated', [['address', true], ['bool', false], ['bool', false]]),
} as const;

export type BridgeEventName = keyof typeof BRIDGE_EVENTS;

/** Topics hashed on first use: hashing all of them at module load cost ~5 ms of every cold start. */
const TOPICS = new Map<BridgeEventName, Uint8Array>();

/** Topic 0 of an event. */
export function bridgeEventTopic(name: BridgeEventName): Uint8Array {
  let topic = TOPICS.get(name);
  if (topic === undefined) {
    topic = keccak_256(new TextEncoder().encode(BRIDGE_EVENTS[name].signature));
    TOPICS.set(name, topic);
  }
  return topic;
}

function topicWord(type: 'address' | 'bytes32', value: Uint8Array): Uint8Array {
  if (type === 'bytes32') {
    if (value.length !== 32) throw new Error('a bytes32 topic takes 32 bytes');
    return value;
  }
  if (value.length !== 20) throw new Error('an address topic takes 20 bytes');
  const word = new Uint8Array(32);
  word.set(value, 12);
  return word;
}

/**
 * The log of event `name`: `indexed` are the indexed parameters' values (20-byte addresses,
 * 32-byte hashes), `data` the others', in the signature's order.
 */
export function bridgeLog(name: BridgeEventName, indexed: readonly Uint8Array[], data: readonly AbiValue[]): BridgeLog {
  const event = BRIDGE_EVENTS[name];
  if (indexed.length !== event.indexed.length || data.length !== event.data.length) {
    throw new Error(`${name}: ${event.indexed.length} indexed and ${event.data.length} data values expected`);
  }
  const topics = [bridgeEventTopic(name), ...indexed.map((v, i) => topicWord(event.indexed[i]!, v))];
  return [BRIDGE_ADDRESS, topics, encodeAbi(event.data, data)];
}
