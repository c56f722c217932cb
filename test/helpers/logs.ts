/** Log shapes and topic encodings shared by the logs, filters and subscriptions tests. */
import { toBeHex, zeroPadValue } from 'ethers';

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
