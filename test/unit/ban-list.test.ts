/** The ban list's address rules (rskj InetAddressUtils plus the devnode's loopback rule) and its listing. */
import { describe, expect, it } from 'vitest';
import { BanList, clientAddressOf, formatAddress, InvalidBannedAddress, parseBanEntry, parseIpLiteral } from '../../src/gateway/ban-list.js';

describe('IP literals', () => {
  it('parse to 4 or 16 bytes; IPv4-mapped IPv6 becomes IPv4 (as Java InetAddress does)', () => {
    expect([...parseIpLiteral('192.168.51.1')!]).toEqual([192, 168, 51, 1]);
    expect([...parseIpLiteral('2001:db8::1')!]).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect([...parseIpLiteral('[2001:db8::1]')!]).toHaveLength(16);
    expect([...parseIpLiteral('::ffff:10.1.2.3')!]).toEqual([10, 1, 2, 3]);
    expect([...parseIpLiteral('::ffff:a01:203')!]).toEqual([10, 1, 2, 3]);
    expect([...parseIpLiteral('64:ff9b::192.0.2.33')!].slice(12)).toEqual([192, 0, 2, 33]);
    for (const bad of ['localhost', 'example.com', '1.2.3', '256.1.1.1', '[10.0.0.1]', 'fe80::1%eth0', '']) expect(parseIpLiteral(bad), bad).toBeUndefined();
  });

  it('format as Java getHostAddress: dotted IPv4, eight uncompressed lowercase IPv6 groups', () => {
    expect(formatAddress(parseIpLiteral('2001:DB8::AB:1')!)).toBe('2001:db8:0:0:0:0:ab:1');
    expect(formatAddress(parseIpLiteral('::1')!)).toBe('0:0:0:0:0:0:0:1');
    expect(clientAddressOf('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(clientAddressOf('fe80::1%eth0')).toBe('fe80:0:0:0:0:0:0:1');
    expect(clientAddressOf(undefined)).toBeUndefined();
  });
});

describe('parseBanEntry', () => {
  it('accepts addresses and blocks, listing blocks with the address as given and its bits', () => {
    expect(parseBanEntry('192.168.51.1').text).toBe('192.168.51.1');
    expect(parseBanEntry(' 10.0.0.7 ').text).toBe('10.0.0.7');
    expect(parseBanEntry('192.168.51.1/16')).toMatchObject({ text: '192.168.51.1/16', bits: 16 });
    expect(parseBanEntry('10.0.0.0/8/').text).toBe('10.0.0.0/8'); // Java split drops trailing empties
    expect(parseBanEntry('10.0.0.0/+08').text).toBe('10.0.0.0/8'); // Integer.parseInt
    expect(parseBanEntry('2001:db8::/32').text).toBe('2001:db8:0:0:0:0:0:0/32');
    expect(parseBanEntry('127.0.0.2').text).toBe('127.0.0.2');
    expect(parseBanEntry('127.0.0.2/31').text).toBe('127.0.0.2/31');
  });

  it('refuses what rskj refuses, and anything covering 127.0.0.1 or ::1, with rskj\'s message', () => {
    const refused = [
      '127.0.0.1', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1', 'localhost', 'example.com', '', '   ', '/8', '/',
      '10.0.0.0/0', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/x', '10.0.0.0/ 8', '10.0.0.0//8', '2001:db8::/129',
      '127.0.0.0/8', '127.0.0.0/30', '64.0.0.0/1', '::/1', '0.0.0.0/8', '127.0.0.1/32',
    ];
    for (const input of refused) {
      expect(() => parseBanEntry(input), JSON.stringify(input)).toThrow(InvalidBannedAddress);
      expect(() => parseBanEntry(input)).toThrow(`invalid banned address ${input}`);
    }
  });
});

describe('BanList', () => {
  it('lists addresses then blocks in the order banned, without duplicates, and matches clients', async () => {
    const bans = await BanList.open(undefined);
    for (const entry of ['10.1.0.0/16', '192.168.51.1', '2001:db8::1', '::ffff:10.9.9.9', '10.1.0.0/16', '192.168.51.1', '2001:db8::/32']) await bans.ban(entry);
    expect(bans.list()).toEqual(['192.168.51.1', '2001:db8:0:0:0:0:0:1', '10.9.9.9', '10.1.0.0/16', '2001:db8:0:0:0:0:0:0/32']);
    expect(bans.isBanned('10.1.255.3')).toBe(true);
    expect(bans.isBanned('::ffff:10.1.0.9')).toBe(true);
    expect(bans.isBanned('10.2.0.1')).toBe(false);
    expect(bans.isBanned('2001:db8:ffff::7')).toBe(true);
    expect(bans.isBanned('2001:db9::1')).toBe(false);
    expect(bans.isBanned('127.0.0.1')).toBe(false);
    await bans.unban('10.1.0.0/16');
    await bans.unban('10.1.0.0/24'); // not banned: ignored
    await bans.unban('10.9.9.9');
    expect(bans.list()).toEqual(['192.168.51.1', '2001:db8:0:0:0:0:0:1', '2001:db8:0:0:0:0:0:0/32']);
    expect(bans.isBanned('10.1.255.3')).toBe(false);
  });

  it('a /31 and a /1 block match bit by bit', async () => {
    const bans = await BanList.open(undefined);
    await bans.ban('127.0.0.2/31');
    await bans.ban('128.0.0.0/1');
    expect(['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', '128.0.0.1', '255.1.1.1', '127.255.255.255'].map((a) => bans.isBanned(a))).toEqual([
      false, true, true, false, true, true, false,
    ]);
  });
});
