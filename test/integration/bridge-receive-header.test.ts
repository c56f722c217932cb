/**
 * receiveHeader(bytes) (public, RSKIP200) through ethers with the Bridge ABI: rskj's return codes
 * for headers of and around the local Bitcoin chain, which the Bridge follows by itself (so a header
 * the node mined is already stored: -4).
 */
import { describe, expect, it } from 'vitest';
import type { Contract } from 'ethers';
import { call, type TestNode } from '../helpers/node.js';
import { ethersNodeForTests } from '../helpers/ethers.js';
import { bridgeContract } from '../helpers/bridge-contract.js';

let t: TestNode;
let bridge: Contract;

ethersNodeForTests((node) => {
  ({ t } = node);
  bridge = bridgeContract(node.wallet);
});

const headerAt = async (height: number) => Buffer.from(await call(t.testnetUrl, 'btc_getBlockHeader', [height]), 'hex');
/** A header with its parent field (bytes 4..36, internal order) set to the block at `parentHeight`. */
const childOf = async (parentHeight: number) => {
  const parentHash = Buffer.from((await call(t.testnetUrl, 'btc_getBlock', [parentHeight])).hash, 'hex').reverse();
  const header = await headerAt(parentHeight);
  parentHash.copy(header, 4);
  header.writeUInt32LE(header.readUInt32LE(76) + 1, 76); // another nonce: not any stored block
  return '0x' + header.toString('hex');
};
const receive = (header: string | Buffer) => bridge.receiveHeader!.staticCall(header) as Promise<bigint>;

describe('receiveHeader answers rskj\'s codes', () => {
  it('a header of the local chain is already stored: -4 (RECEIVE_HEADER_BLOCK_PREVIOUSLY_SAVED)', async () => {
    const tip = (await call(t.testnetUrl, 'btc_getInfo')).height as number;
    expect(await receive(await headerAt(tip))).toBe(-4n);
    expect(await receive(await headerAt(0))).toBe(-4n);
  });

  it('a header that is not 80 bytes: -20 (RECEIVE_HEADER_ERROR_SIZE_MISTMATCH)', async () => {
    expect(await receive((await headerAt(1)).subarray(0, 79))).toBe(-20n);
    expect(await receive('0x')).toBe(-20n);
  });

  it('an unknown parent: -3 (RECEIVE_HEADER_CANT_FOUND_PREVIOUS_BLOCK)', async () => {
    const header = await headerAt(5);
    Buffer.alloc(32, 0xab).copy(header, 4);
    expect(await receive(header)).toBe(-3n);
  });

  it('a parent more than 25 blocks below the best block: -2 (RECEIVE_HEADER_BLOCK_TOO_OLD)', async () => {
    const tip = (await call(t.testnetUrl, 'btc_getInfo')).height as number;
    expect(await receive(await childOf(tip - 27))).toBe(-2n);
  });

  it('a header the node did not mine on a recent parent cannot join the followed chain: -99, nothing stored', async () => {
    const tip = (await call(t.testnetUrl, 'btc_getInfo')).height as number;
    const header = await childOf(tip);
    expect(await receive(header)).toBe(-99n);
    expect(await bridge.getBtcBlockchainBestChainHeight!()).toBe(BigInt(tip));
  });

  it('in a mined transaction the call succeeds (a code, not a failure)', async () => {
    const tx = await bridge.receiveHeader!(await headerAt(0), { gasLimit: 100_000 });
    expect((await tx.wait())!.status).toBe(1);
  });
});
