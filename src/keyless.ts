/**
 * The keyless network: one network served at `/` (no key in the path) for local tools that default
 * to http://localhost:8545 (cast, forge, Hardhat's `localhost` network). On by default under the
 * Hardhat profile, never with --hosted, and on loopback only unless the operator says otherwise:
 * whoever reaches a keyless URL has the operator's rights on that network.
 */
import { isIPv4 } from 'node:net';
import type { NetworkName } from './chain/index.js';

export type KeylessSetting = NetworkName | 'none';

export interface KeylessOptions {
  keylessNetwork?: KeylessSetting;
  keylessBeyondLoopback?: boolean;
  profile?: 'hardhat';
  hosted?: boolean;
}

export function parseKeylessFlag(value: string | undefined): KeylessSetting | undefined {
  if (value === undefined || value === 'testnet' || value === 'mainnet' || value === 'none') return value;
  throw new Error(`--keyless-network ${value}: expected testnet, mainnet or none`);
}

/** Refuses what can never be served: a keyless network on the hosted endpoint's terms. */
export function checkKeylessOptions(options: KeylessOptions): void {
  const setting = options.keylessNetwork;
  if (setting !== undefined && setting !== 'none' && setting !== 'testnet' && setting !== 'mainnet') {
    throw new Error(`keyless network ${String(setting)}: expected testnet, mainnet or none`);
  }
  if (options.hosted === true && setting !== undefined && setting !== 'none') {
    throw new Error('--keyless-network and --hosted: the hosted endpoint has no URL without a key; give one of them');
  }
}

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || (isIPv4(bare) && bare.startsWith('127.'));
}

/**
 * The network served without a key by a server listening on `host`, or undefined. The Hardhat
 * profile's default stays off beyond loopback; an explicit --keyless-network there is refused
 * unless --keyless-beyond-loopback says it is meant.
 */
export function keylessNetworkFor(options: KeylessOptions, host: string): NetworkName | undefined {
  const explicit = options.keylessNetwork;
  const network = explicit ?? (options.profile === 'hardhat' && options.hosted !== true ? 'testnet' : 'none');
  if (network === 'none') return undefined;
  if (isLoopbackHost(host) || options.keylessBeyondLoopback === true) return network;
  if (explicit === undefined) return undefined;
  throw new Error(
    `--keyless-network ${network}: the node listens on ${host}, beyond loopback, where anyone who reaches it could use ${network} without a key; ` +
      'add --keyless-beyond-loopback to serve it anyway, or listen on 127.0.0.1',
  );
}
