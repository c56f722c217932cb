/**
 * The contract addresses a call touches, for a key's allowed-contracts list (gateway/allowlist.ts):
 * the `to` of eth_call, eth_estimateGas and debug_traceCall (which runs a call the same way), the
 * recipient of eth_sendRawTransaction (read from the signed bytes with the RLP decoder the chain's
 * pool uses), and the `address` of eth_getLogs, eth_newFilter and a `logs` eth_subscribe (the
 * same logs by other ways). Other methods touch no contract by this rule.
 */
import { RLP } from '@ethereumjs/rlp';

/** The addresses (lowercase), or why they cannot be read; undefined for a method the rule does not cover. */
export type CallAddresses = { addresses: string[] } | { unreadable: string };

/** A legacy transaction's fields: nonce, gasPrice, gas, to, value, data, v, r, s. */
const LEGACY_FIELD_COUNT = 9;
const TO_FIELD = 3;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function callAddresses(method: string, params: unknown): CallAddresses | undefined {
  const first = Array.isArray(params) ? params[0] : undefined;
  switch (method) {
    case 'eth_call':
    case 'eth_estimateGas':
    case 'debug_traceCall': {
      const to = isObject(first) ? first.to : undefined;
      if (to === undefined || to === null) return { unreadable: `this ${method} names no contract (no "to": a deployment)` };
      return addressList([to], `the "to" of this ${method}`);
    }
    case 'eth_sendRawTransaction':
      return rawRecipient(first);
    case 'eth_subscribe':
      return first === 'logs' ? filterAddresses(method, Array.isArray(params) ? params[1] : undefined) : undefined;
    case 'eth_getLogs':
    case 'eth_newFilter':
      return filterAddresses(method, first);
    default:
      return undefined;
  }
}

function filterAddresses(method: string, filter: unknown): CallAddresses {
  const address = isObject(filter) ? filter.address : undefined;
  if (address === undefined || address === null || (Array.isArray(address) && address.length === 0)) {
    return { unreadable: `this ${method} filter names no address: a key with allowed contracts must filter by address` };
  }
  return addressList(Array.isArray(address) ? address : [address], `the address of this ${method} filter`);
}

function rawRecipient(raw: unknown): CallAddresses {
  if (typeof raw !== 'string' || !/^0x(?:[0-9a-fA-F]{2})+$/.test(raw)) return { unreadable: 'the raw transaction is not hex bytes' };
  let fields: unknown;
  try {
    fields = RLP.decode(Buffer.from(raw.slice(2), 'hex'));
  } catch {
    fields = undefined;
  }
  if (!Array.isArray(fields) || fields.length !== LEGACY_FIELD_COUNT || !(fields[TO_FIELD] instanceof Uint8Array)) {
    return { unreadable: 'the recipient of the raw transaction cannot be read (not an RLP legacy transaction)' };
  }
  const to = fields[TO_FIELD] as Uint8Array;
  if (to.length === 0) return { unreadable: 'the raw transaction names no contract (a deployment)' };
  return { addresses: [`0x${Buffer.from(to).toString('hex')}`] };
}

function addressList(values: unknown[], what: string): CallAddresses {
  const addresses: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string' || !ADDRESS.test(value)) return { unreadable: `${what} is not an address` };
    addresses.push(value.toLowerCase());
  }
  return { addresses };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
