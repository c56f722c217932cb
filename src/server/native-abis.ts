/**
 * The native contracts' published ABIs (@rsksmart/rsk-precompiled-abis: the Bridge and
 * HDWalletUtils) keyed by selector, for the explorer's transaction page to decode calls to them
 * by: the browser has no keccak-256, so the selectors are computed here, once. (The Bridge here
 * emits no events, so the ABIs' events are not listed.)
 */
import { createRequire } from 'node:module';
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util';
import { keccak256 } from '../chain/index.js';

interface AbiParam { name: string; type: string }
interface AbiEntry { type: string; name?: string; inputs?: AbiParam[] }

export interface NativeAbiTable {
  /** address (lower case) → contract name and functions by 4-byte selector. */
  [address: string]: { name: string; functions: Record<string, { name: string; inputs: AbiParam[] }> };
}

/** The package's modules, as `require('@rsksmart/rsk-precompiled-abis')` exports them. */
const PACKAGE_CONTRACTS = [
  { key: 'bridge', name: 'Bridge' },
  { key: 'hdWalletUtils', name: 'HDWalletUtils' },
] as const;

/** Solidity's canonical names, as the selectors are computed (`int` is `int256`). */
const canonical = (type: string) => type.replace(/^(u?int)(\[|$)/, '$1256$2');

let table: NativeAbiTable | undefined;

export function nativeAbiTable(): NativeAbiTable {
  if (table !== undefined) return table;
  const abis = createRequire(import.meta.url)('@rsksmart/rsk-precompiled-abis') as Record<string, { address: string; abi: AbiEntry[] }>;
  const built: NativeAbiTable = {};
  for (const { key, name } of PACKAGE_CONTRACTS) {
    const { address, abi } = abis[key]!;
    const entry: NativeAbiTable[string] = { name, functions: {} };
    for (const item of abi) {
      if (item.type !== 'function' || item.name === undefined) continue;
      const inputs = (item.inputs ?? []).map((p) => ({ name: p.name, type: canonical(p.type) }));
      const selector = bytesToHex(keccak256(utf8ToBytes(`${item.name}(${inputs.map((p) => p.type).join(',')})`))).slice(0, 10);
      entry.functions[selector] = { name: item.name, inputs };
    }
    built[address.toLowerCase()] = entry;
  }
  table = built;
  return built;
}
