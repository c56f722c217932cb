/**
 * StateDb.absent reads the store as it is when called (synchronously, before ChainStore issues the
 * commit's batch: writeWithNewNodes), so the batch's own nodes never count as already stored, on
 * LevelDB and in memory alike. A node stored earlier is never reported new (a revert would delete
 * a node older states still use); one deleted since (by a revert) is new again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Level } from 'level';
import type { Kv } from '../../src/chain/storage/keys.js';
import { stateNodeKeyOfHex } from '../../src/chain/storage/keys.js';
import { MemoryKv } from '../../src/chain/storage/memory-kv.js';
import { StateDb } from '../../src/chain/storage/state-db.js';

const hash = (byte: number) => byte.toString(16).padStart(2, '0').repeat(32);
const put = (key: string) => ({ type: 'put' as const, key: stateNodeKeyOfHex(key), value: Uint8Array.of(1, 2, 3) });

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const stores: Array<[string, () => Kv]> = [
  [
    'LevelDB',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'state-db-absent-'));
      dirs.push(dir);
      return new Level<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' }) as unknown as Kv;
    },
  ],
  ['memory', () => new MemoryKv()],
];

describe.each(stores)('StateDb.absent over %s', (_, make) => {
  it('reads the store as it is at the call, and never reports a node stored before', async () => {
    const kv = make();
    await kv.open();
    const db = new StateDb(kv, 0);
    const older = hash(1);
    await kv.batch([put(older)]);
    const fresh = [hash(2), hash(3)];
    const absent = db.absent([older, ...fresh]);
    await kv.batch([put(older), ...fresh.map(put)]);
    expect(absent).toEqual(fresh);
    // Once written, they are stored; once deleted (a revert's batch), new again.
    expect(db.absent([older, ...fresh])).toEqual([]);
    await kv.batch(db.deletions([fresh[0]!]));
    expect(db.absent([older, ...fresh])).toEqual([fresh[0]]);
    await kv.close();
  });
});
