/**
 * Execution.stateReader keeps one reader per state root and database (opening one cost more than
 * its reads, and every evm_revert came back to a root whose reader was gone): the same root gives
 * the same reader, each root still answers its own state, and callers cannot change a kept one.
 */
import { Account, KECCAK256_RLP, MapDB, createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { Execution, KEPT_STATE_READERS } from '../../src/chain/exec/execution.js';

const ALICE = createAddressFromString('0x00000000000000000000000000000000000000a1');

/** Roots after each balance given to ALICE in turn, over `db`. */
async function rootsWithBalances(execution: Execution, db: MapDB<string, Uint8Array>, balances: bigint[]): Promise<Uint8Array[]> {
  const manager = execution.stateManager(db, KECCAK256_RLP);
  const roots: Uint8Array[] = [];
  for (const balance of balances) {
    await manager.checkpoint();
    await manager.putAccount(ALICE, new Account(0n, balance));
    await manager.commit();
    roots.push(await manager.getStateRoot());
  }
  return roots;
}

describe('Execution.stateReader', () => {
  const execution = new Execution(createRskCommon(33, 'unit'), async () => undefined);

  it('gives the same reader for a root read again, and each root its own state', async () => {
    const db = new MapDB<string, Uint8Array>();
    const [one, two] = await rootsWithBalances(execution, db, [1n, 2n]);
    const first = execution.stateReader(db, one!);
    expect(execution.stateReader(db, two!)).not.toBe(first);
    expect(execution.stateReader(db, one!)).toBe(first);
    expect((await execution.stateReader(db, one!).getAccount(ALICE))?.balance).toBe(1n);
    expect((await execution.stateReader(db, two!).getAccount(ALICE))?.balance).toBe(2n);
  });

  it('never shares a reader between two databases', async () => {
    const a = new MapDB<string, Uint8Array>();
    const b = new MapDB<string, Uint8Array>();
    const [rootA] = await rootsWithBalances(execution, a, [5n]);
    await rootsWithBalances(execution, b, [5n]);
    expect(execution.stateReader(a, rootA!)).not.toBe(execution.stateReader(b, rootA!));
  });

  it('hands out fresh accounts: a caller changing one does not change the kept reader', async () => {
    const db = new MapDB<string, Uint8Array>();
    const [root] = await rootsWithBalances(execution, db, [7n]);
    const account = await execution.stateReader(db, root!).getAccount(ALICE);
    account!.balance = 1_000n;
    expect((await execution.stateReader(db, root!).getAccount(ALICE))?.balance).toBe(7n);
  });

  it('still answers every root once more roots were read than it keeps', async () => {
    const db = new MapDB<string, Uint8Array>();
    const balances = Array.from({ length: KEPT_STATE_READERS + 3 }, (_, i) => BigInt(i + 1));
    const roots = await rootsWithBalances(execution, db, balances);
    const first = execution.stateReader(db, roots[0]!);
    for (const root of roots) execution.stateReader(db, root);
    expect(execution.stateReader(db, roots[0]!)).not.toBe(first);
    for (const [i, root] of roots.entries()) expect((await execution.stateReader(db, root).getAccount(ALICE))?.balance).toBe(balances[i]);
  });
});
