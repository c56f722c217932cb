/** Where the keyless network (keyless.ts) is served: loopback by default, beyond it only when asked. */
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, keylessNetworkFor } from '../../src/keyless.js';

describe('keyless network', () => {
  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', '10.0.0.1', 'example.com']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('the Hardhat profile default is testnet on loopback, off beyond it, off with --hosted', () => {
    expect(keylessNetworkFor({ profile: 'hardhat' }, '127.0.0.1')).toBe('testnet');
    expect(keylessNetworkFor({ profile: 'hardhat' }, '0.0.0.0')).toBeUndefined();
    expect(keylessNetworkFor({ profile: 'hardhat', hosted: true }, '127.0.0.1')).toBeUndefined();
    expect(keylessNetworkFor({}, '127.0.0.1')).toBeUndefined();
  });

  it('an explicit keyless network beyond loopback is refused unless --keyless-beyond-loopback', () => {
    expect(() => keylessNetworkFor({ keylessNetwork: 'mainnet' }, '0.0.0.0')).toThrow('--keyless-beyond-loopback');
    expect(keylessNetworkFor({ keylessNetwork: 'mainnet', keylessBeyondLoopback: true }, '0.0.0.0')).toBe('mainnet');
    expect(keylessNetworkFor({ keylessNetwork: 'none', profile: 'hardhat' }, '127.0.0.1')).toBeUndefined();
  });
});
