/**
 * The ABIs of every native contract with functions, keyed by selector, for the explorer's
 * transaction page to decode calls to them by: the Bridge and HDWalletUtils from
 * @rsksmart/rsk-precompiled-abis, REMASC, BlockHeader and Environment from the chain's own copy
 * (chain/native/abis.ts: the package lacks them). The browser has no keccak-256, so the selectors
 * are computed here, once. (Only functions are listed: the Bridge's events, the Union Bridge's
 * union_* logs of chain/native/bridge/events.ts, show on the page as raw topics and data, as any
 * event the page does not name; secp256k1 add/mul take raw input, no ABI.)
 */
import { createRequire } from 'node:module';
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util';
import { UNPUBLISHED_NATIVE_ABIS, keccak256 } from '../chain/index.js';

interface AbiParam { name: string; type: string }
interface AbiEntry { type: string; name?: string; inputs?: readonly AbiParam[] }
type NativeFunctions = Record<string, { name: string; inputs: AbiParam[] }>;

export interface NativeAbiTable {
  /**
   * address (lower case) → contract name and functions by 4-byte selector; a contract that runs a
   * function for empty call data (REMASC: processMinersFees) also lists it under "0x".
   */
  [address: string]: { name: string; functions: NativeFunctions };
}

/** The package's modules, as `require('@rsksmart/rsk-precompiled-abis')` exports them. */
const PACKAGE_CONTRACTS = [
  { key: 'bridge', name: 'Bridge' },
  { key: 'hdWalletUtils', name: 'HDWalletUtils' },
] as const;

/** Solidity's canonical names, as the selectors are computed (`int` is `int256`). */
const canonical = (type: string) => type.replace(/^(u?int)(\[|$)/, '$1256$2');

function functionsBySelector(abi: readonly AbiEntry[]): NativeFunctions {
  const functions: NativeFunctions = {};
  for (const item of abi) {
    if (item.type !== 'function' || item.name === undefined) continue;
    const inputs = (item.inputs ?? []).map((p) => ({ name: p.name, type: canonical(p.type) }));
    const selector = bytesToHex(keccak256(utf8ToBytes(`${item.name}(${inputs.map((p) => p.type).join(',')})`))).slice(0, 10);
    functions[selector] = { name: item.name, inputs };
  }
  return functions;
}

let table: NativeAbiTable | undefined;

export function nativeAbiTable(): NativeAbiTable {
  if (table !== undefined) return table;
  const abis = createRequire(import.meta.url)('@rsksmart/rsk-precompiled-abis') as Record<string, { address: string; abi: AbiEntry[] }>;
  const built: NativeAbiTable = {};
  for (const { key, name } of PACKAGE_CONTRACTS) {
    const { address, abi } = abis[key]!;
    built[address.toLowerCase()] = { name, functions: functionsBySelector(abi) };
  }
  for (const { address, name, abi, emptyData } of UNPUBLISHED_NATIVE_ABIS) {
    const functions = functionsBySelector(abi);
    if (emptyData !== undefined) functions['0x'] = { name: emptyData, inputs: [] };
    built[address] = { name, functions };
  }
  table = built;
  return built;
}
