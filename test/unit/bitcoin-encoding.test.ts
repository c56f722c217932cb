/**
 * src/chain/bitcoin/encoding.ts and coinbase.ts: Bitcoin's integers, counts and the regtest miner's
 * coinbase, checked against @scure/btc-signer (an independent implementation) and the genesis block.
 */
import { describe, expect, it } from 'vitest';
import * as btc from '@scure/btc-signer';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { btcHeaderHash, reversed, u32le, u64le, varInt } from '../../src/chain/bitcoin/encoding.js';
import { coinbaseTransaction } from '../../src/chain/bitcoin/coinbase.js';
import { parseTransaction } from '../../src/chain/bitcoin/parse.js';

const OPTIONS = { allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true } as const;

describe('bitcoin/encoding.ts', () => {
  it('CompactSize counts at each boundary', () => {
    expect(bytesToHex(varInt(0))).toBe('00');
    expect(bytesToHex(varInt(0xfc))).toBe('fc');
    expect(bytesToHex(varInt(0xfd))).toBe('fdfd00');
    expect(bytesToHex(varInt(0xffff))).toBe('fdffff');
    expect(bytesToHex(varInt(0x10000))).toBe('fe00000100');
  });

  it('little-endian integers', () => {
    expect(bytesToHex(u32le(70001))).toBe('71110100');
    expect(bytesToHex(u64le(50n * 100_000_000n))).toBe('00f2052a01000000');
  });

  it('the header hash is in display order: Bitcoin genesis', () => {
    const genesis = hexToBytes(
      '0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c',
    );
    expect(bytesToHex(btcHeaderHash(genesis))).toBe('000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f');
  });

  it('reversed copies, leaving its input alone', () => {
    const bytes = Uint8Array.of(1, 2, 3);
    expect([...reversed(bytes)]).toEqual([3, 2, 1]);
    expect([...bytes]).toEqual([1, 2, 3]);
  });
});

describe('bitcoin/coinbase.ts', () => {
  const publicKey = Uint8Array.from({ length: 33 }, (_, i) => (i === 0 ? 2 : i));
  const dataScript = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff); // a 3-byte script length
  const coinbase = coinbaseTransaction({ rewardSatoshis: 5_000_000_000n, publicKey, dataScript });

  it('is the transaction @scure/btc-signer reads: one null input, P2PK reward, data output paid 0', () => {
    const tx = btc.Transaction.fromRaw(coinbase, OPTIONS);
    expect(tx.version).toBe(1);
    expect(tx.lockTime).toBe(0);
    expect(tx.inputsLength).toBe(1);
    const input = tx.getInput(0);
    expect(bytesToHex(input.txid!)).toBe('00'.repeat(32));
    expect(input.index).toBe(0xffffffff);
    expect(input.sequence).toBe(0xffffffff);
    expect(tx.outputsLength).toBe(2);
    expect(tx.getOutput(0).amount).toBe(5_000_000_000n);
    expect(btc.Script.decode(tx.getOutput(0).script!)).toEqual([publicKey, 'CHECKSIG']);
    expect(tx.getOutput(1).amount).toBe(0n);
    expect(bytesToHex(tx.getOutput(1).script!)).toBe(bytesToHex(dataScript));
  });

  it('its txid is the one @scure/btc-signer and bitcoin/parse.ts compute', () => {
    const tx = btc.Transaction.fromRaw(coinbase, OPTIONS);
    expect(bytesToHex(reversed(parseTransaction(coinbase).txid))).toBe(tx.id);
  });
});
