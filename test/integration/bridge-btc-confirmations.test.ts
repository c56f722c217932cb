/**
 * getBtcTransactionConfirmations (RSKIP122) through ethers with the Bridge ABI, against the local
 * Bitcoin chain: a faucet transaction's merkle branch, converted from btc_getPartialMerkleTree as
 * rskj's MerkleBranch takes it (sibling hashes bottom-up, path bit i = 1 when the proven node is on
 * the right at level i), answers the block's confirmations; rskj's codes for an unknown block and a
 * bad branch; a branch MerkleBranch refuses fails the call.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from 'ethers';
import { call, type TestNode } from '../helpers/node.js';
import { BRIDGE, bridgeNodeForTests, type BridgeNode } from '../helpers/bridge-contract.js';
import { merkleBranch } from '../helpers/btc-branch.js';

const FEDERATION = '2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7';

let t: TestNode;
let bridge: Contract;
let btc: BridgeNode['btc'];

bridgeNodeForTests((node) => ({ t, bridge, btc } = node));
describe('getBtcTransactionConfirmations against the local Bitcoin chain', () => {
  let txid: string;
  let blockHash: string;
  let branch: { hashes: string[]; path: number };

  beforeAll(async () => {
    // The coinbase and three transactions: the proven one (index 3) is a right child at the leaves.
    await btc('btc_fund', [FEDERATION, 600_000]);
    await btc('btc_fund', [FEDERATION, 700_000]);
    txid = await btc('btc_fund', [FEDERATION, 800_000]);
    await btc('btc_mine', [1]);
    const proof = await btc('btc_getPartialMerkleTree', [txid]);
    expect(proof.index).toBe(3);
    blockHash = proof.blockhash;
    branch = merkleBranch(proof.pmt);
    expect(branch.hashes).toHaveLength(2);
  });

  it('answers the block confirmations (best - height + 1), as btc_getTransaction counts them', async () => {
    expect(await bridge.getBtcTransactionConfirmations!('0x' + txid, '0x' + blockHash, branch.path, branch.hashes)).toBe(1n);
    await btc('btc_mine', [2]);
    expect(await bridge.getBtcTransactionConfirmations!('0x' + txid, '0x' + blockHash, branch.path, branch.hashes)).toBe(3n);
    expect((await btc('btc_getTransaction', [txid])).confirmations).toBe(3);
  });

  it('an unknown block answers -1 (BTC_TRANSACTION_CONFIRMATION_INEXISTENT_BLOCK_HASH_ERROR_CODE)', async () => {
    expect(await bridge.getBtcTransactionConfirmations!('0x' + txid, '0x' + 'ab'.repeat(32), branch.path, branch.hashes)).toBe(-1n);
  });

  it('a branch that does not reduce to the merkle root answers -5 (INVALID_MERKLE_BRANCH)', async () => {
    expect(await bridge.getBtcTransactionConfirmations!('0x' + 'cd'.repeat(32), '0x' + blockHash, branch.path, branch.hashes)).toBe(-5n);
    expect(await bridge.getBtcTransactionConfirmations!('0x' + txid, '0x' + blockHash, branch.path ^ 1, branch.hashes)).toBe(-5n);
  });

  it('a path that reads as a negative Java int passes MerkleBranch\'s bit count (rskj counts 0 bits) and reduces with all its bits set', async () => {
    expect(branch.path).toBe(3); // index 3 of 4: the right child at both levels
    const minusOne = (1n << 256n) - 1n; // BigInteger.intValue() -> -1
    const answer = await bridge.getBtcTransactionConfirmations!('0x' + txid, '0x' + blockHash, minusOne, branch.hashes);
    expect(answer).toBe(await bridge.getBtcTransactionConfirmations!('0x' + txid, '0x' + blockHash, branch.path, branch.hashes));
  });

  it('a path with more significant bits than hashes fails the call (MerkleBranch throws, VMException)', async () => {
    const data = bridge.interface.encodeFunctionData('getBtcTransactionConfirmations', ['0x' + txid, '0x' + blockHash, 4, branch.hashes]);
    expect(await call(t.testnetUrl, 'eth_call', [{ to: BRIDGE, data }, 'latest'])).toBe('0x');
  });

  it('costs 27,000 + 315 per block of depth + 144 per branch hash, plus 2 gas per byte of data', async () => {
    const data = bridge.interface.encodeFunctionData('getBtcTransactionConfirmations', ['0x' + txid, '0x' + blockHash, branch.path, branch.hashes]);
    const depth = BigInt((await btc('btc_getTransaction', [txid])).confirmations - 1);
    const bytes = Buffer.from(data.slice(2), 'hex');
    const intrinsic = 21_000n + [...bytes].reduce((sum, x) => sum + (x === 0 ? 4n : 16n), 0n);
    const estimate = BigInt(await call(t.testnetUrl, 'eth_estimateGas', [{ to: BRIDGE, data }]));
    expect(estimate).toBe(intrinsic + 27_000n + 315n * depth + 144n * 2n + 2n * BigInt(bytes.length));
  });
});
