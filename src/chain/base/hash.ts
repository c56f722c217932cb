/**
 * Keccak-256 for everything the node hashes: trie nodes and keys (through the Common's
 * customCrypto, evm/rsk-common.ts), transaction and block hashes, addresses. hash-wasm's WebAssembly
 * Keccak is 4-10x faster than @noble/hashes' JavaScript one for 32-600 byte inputs (trie nodes
 * are most of a block's hashing), and needs no native binary. WebAssembly is set up
 * asynchronously: createNode waits for it (about 4 ms) before hashing the genesis tries, and the
 * EVM side's load starts it too (execution.ts); @noble/hashes answers until it is ready (or for
 * good, should it fail): both give the same digests.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createRequire } from 'node:module';
import type { IHasher } from 'hash-wasm/dist/lib/WASMInterface.js';

/** Only the Keccak part of hash-wasm (11 KB), not its index of every algorithm. */
const HASH_WASM_KECCAK = 'hash-wasm/dist/keccak.umd.min.js';

let wasm: IHasher | undefined;
let loading: Promise<void> | undefined;

/** Starts setting up the WebAssembly Keccak (once). */
export function startFastKeccak(): Promise<void> {
  loading ??= (async () => {
    const { createKeccak } = createRequire(import.meta.url)(HASH_WASM_KECCAK) as typeof import('hash-wasm');
    wasm = await createKeccak(256);
  })().catch(() => undefined);
  return loading;
}

export function keccak256(data: Uint8Array): Uint8Array {
  if (wasm !== undefined) return wasm.init().update(data).digest('binary');
  return keccak_256(data);
}

/** Resolves once the WebAssembly Keccak is in use (or has failed to load); for tests. */
export function wasmKeccakLoaded(): Promise<boolean> {
  return startFastKeccak().then(() => wasm !== undefined);
}
