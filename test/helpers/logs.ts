/** Log shapes and topic encodings shared by the logs, filters and subscriptions tests. */
import { expect } from 'vitest';
import { toBeHex, zeroPadValue } from 'ethers';
import { COW, call } from './node.js';

/** The spec's log object as the node serializes it. */
export interface RpcLog {
  removed: boolean;
  logIndex: string;
  transactionIndex: string;
  transactionHash: string;
  blockHash: string;
  blockNumber: string;
  address: string;
  data: string;
  topics: string[];
}

/** An address as an indexed topic. */
export const topicOf = (address: string) => zeroPadValue(address.toLowerCase(), 32);
/** A number as a 32-byte word (an indexed uint topic, or ABI data). */
export const word = (n: bigint | number) => zeroPadValue(toBeHex(n), 32);

/** eth_sendTransaction from COW (the node signs; gas 0x400000 unless given); the hash. With automine it is mined when this returns. */
export function sendFromCow(url: string, tx: { to?: string; data?: string; value?: string; from?: string; gas?: string }): Promise<string> {
  return call(url, 'eth_sendTransaction', [{ from: COW.address, gas: '0x400000', ...tx }]);
}

/** The receipt of a mined transaction that succeeded (status 0x1). */
export async function successfulReceipt(url: string, hash: string): Promise<any> {
  const r = await call(url, 'eth_getTransactionReceipt', [hash]);
  expect(r, `receipt of ${hash}`).not.toBeNull();
  expect(r.status).toBe('0x1');
  return r;
}
