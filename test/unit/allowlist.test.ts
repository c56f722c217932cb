/**
 * The pure parts of the alternative provider's allow lists: entries parsed and normalised, origin
 * and IP matching (IPv4, IPv6 blocks, IPv4-mapped addresses), and the contract addresses a call
 * touches (rpc/call-addresses.ts), including a signed raw transaction's recipient.
 */
import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { AllowRules, AllowlistError, parseAllowlist } from '../../src/gateway/allowlist.js';
import { bearerToken } from '../../src/gateway/jwt-keys.js';
import { callAddresses } from '../../src/rpc/call-addresses.js';

const rules = (lists: Parameters<typeof parseAllowlist>[0]) => new AllowRules(parseAllowlist(lists)!);

describe('parseAllowlist', () => {
  it('is undefined when every list is empty (blank lines dropped)', () => {
    expect(parseAllowlist({})).toBeUndefined();
    expect(parseAllowlist({ origins: ['', '  '], methods: [] })).toBeUndefined();
  });

  it('normalises entries and drops duplicates', () => {
    expect(parseAllowlist({ origins: ['HTTPS://A.Example.com:443/', 'http://localhost:3000', 'https://a.example.com'], ipRanges: ['::ffff:a00:7', '2001:DB8::1/128', '0.0.0.0/0'] })).toEqual({
      origins: ['https://a.example.com', 'http://localhost:3000'],
      ipRanges: ['10.0.0.7', '2001:db8:0:0:0:0:0:1/128', '0.0.0.0/0'],
      contracts: [],
      methods: [],
    });
  });

  it.each([
    [{ origins: ['*.example.com'] }],
    [{ origins: ['https://user:pw@example.com'] }],
    [{ origins: ['https://example.com?x=1'] }],
    [{ ipRanges: ['10.0.0.0/8/8'] }],
    [{ ipRanges: ['::1/129'] }],
    [{ ipRanges: ['10.0.0.0/-1'] }],
    [{ contracts: ['0xZZ00000000000000000000000000000000000000'] }],
    [{ methods: ['eth-call'] }],
    [{ methods: [1] }],
  ])('refuses %j', (input) => {
    expect(() => parseAllowlist(input as Parameters<typeof parseAllowlist>[0])).toThrow(AllowlistError);
  });
});

describe('AllowRules', () => {
  it('origins: exact, any subdomain of a *. entry (not the domain itself), same scheme and port', () => {
    const allow = rules({ origins: ['https://app.example.com', 'https://*.example.org', 'http://localhost:3000'] });
    for (const ok of ['https://app.example.com', 'https://APP.example.com', 'https://x.example.org', 'https://a.b.example.org', 'http://localhost:3000']) {
      expect(allow.originRefusal(ok), ok).toBeUndefined();
    }
    for (const bad of [undefined, '', 'null', 'https://example.org', 'https://badexample.org', 'http://x.example.org', 'http://localhost:3001', 'https://app.example.com.evil.net']) {
      expect(allow.originRefusal(bad), String(bad)).toBeDefined();
    }
  });

  it('IP ranges: IPv4 blocks, IPv6 blocks, mapped addresses read as IPv4', () => {
    const allow = rules({ ipRanges: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.5'] });
    for (const ok of ['10.1.2.3', '::ffff:10.9.9.9', '2001:db8:1::7', '192.0.2.5']) expect(allow.ipRefusal(ok), ok).toBeUndefined();
    for (const bad of ['11.0.0.1', '192.0.2.6', '2001:db9::1', '::1', undefined]) expect(allow.ipRefusal(bad), String(bad)).toBeDefined();
  });

  it('lists that are empty do not restrict', () => {
    const allow = rules({ methods: ['eth_call'] });
    expect(allow.originRefusal(undefined)).toBeUndefined();
    expect(allow.ipRefusal('203.0.113.1')).toBeUndefined();
    expect(allow.contracts).toBeUndefined();
    expect(allow.methods?.has('eth_call')).toBe(true);
  });
});

describe('callAddresses', () => {
  const A = '0x1000000000000000000000000000000000000001';
  const B = '0x2000000000000000000000000000000000000002';

  it('reads the to of calls and the addresses of filters, lowercased', () => {
    expect(callAddresses('eth_call', [{ to: A.toUpperCase().replace('0X', '0x') }, 'latest'])).toEqual({ addresses: [A] });
    expect(callAddresses('eth_estimateGas', [{ to: B }])).toEqual({ addresses: [B] });
    expect(callAddresses('eth_getLogs', [{ address: [A, B] }])).toEqual({ addresses: [A, B] });
    expect(callAddresses('eth_newFilter', [{ address: A }])).toEqual({ addresses: [A] });
    expect(callAddresses('debug_traceCall', [{ to: B }, 'latest'])).toEqual({ addresses: [B] });
    expect(callAddresses('eth_subscribe', ['logs', { address: [B] }])).toEqual({ addresses: [B] });
    expect(callAddresses('eth_subscribe', ['logs'])).toHaveProperty('unreadable');
    expect(callAddresses('eth_subscribe', ['newHeads'])).toBeUndefined();
    expect(callAddresses('eth_getBalance', [A, 'latest'])).toBeUndefined();
  });

  it('calls that name no contract, or not as an address, are unreadable', () => {
    expect(callAddresses('eth_call', [{ data: '0x00' }])).toHaveProperty('unreadable');
    expect(callAddresses('eth_call', [])).toHaveProperty('unreadable');
    expect(callAddresses('eth_getLogs', [{ address: [] }])).toHaveProperty('unreadable');
    expect(callAddresses('eth_getLogs', [{ address: ['0x12'] }])).toHaveProperty('unreadable');
  });

  it("reads a signed legacy transaction's recipient; a deployment or other bytes are unreadable", async () => {
    const wallet = Wallet.createRandom();
    const tx = (to: string | null) => wallet.signTransaction({ type: 0, chainId: 31n, nonce: 0, gasPrice: 1n, gasLimit: 21000n, to, data: to === null ? '0x00' : '0x' });
    expect(callAddresses('eth_sendRawTransaction', [await tx(B)])).toEqual({ addresses: [B] });
    expect(callAddresses('eth_sendRawTransaction', [await tx(null)])).toEqual({ unreadable: 'the raw transaction names no contract (a deployment)' });
    const typed = await wallet.signTransaction({ type: 2, chainId: 31n, nonce: 0, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, gasLimit: 21000n, to: B });
    expect(callAddresses('eth_sendRawTransaction', [typed])).toHaveProperty('unreadable');
    expect(callAddresses('eth_sendRawTransaction', ['0xc0'])).toHaveProperty('unreadable');
    expect(callAddresses('eth_sendRawTransaction', [42])).toHaveProperty('unreadable');
  });
});

describe('bearerToken', () => {
  it('takes the token of a Bearer header, any case, and nothing else', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer   abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
