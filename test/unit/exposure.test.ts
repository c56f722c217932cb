/** The start-up warning for a node reachable beyond loopback without --hosted (server/exposure.ts). */
import { describe, expect, it } from 'vitest';
import { exposureWarning, isLoopbackHost } from '../../src/server/exposure.js';

describe('isLoopbackHost', () => {
  it('is true for 127.0.0.0/8, ::1 (bracketed or IPv4-mapped too) and localhost, in any case and with whitespace', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', ' LocalHost ', ' 127.0.0.1\t']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('is false for every address and name beyond this machine', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', '::ffff:10.0.0.1', 'fe80::1', 'example.com', 'my-laptop', '']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('exposureWarning', () => {
  it('warns beyond loopback without --hosted, naming the host and the way out', () => {
    const warning = exposureWarning('0.0.0.0', false);
    expect(warning).toMatch(/^WARNING: listening on 0\.0\.0\.0, beyond this machine, without --hosted/);
    expect(warning).toMatch(/Start with --hosted/);
  });

  it('is silent on loopback, and with --hosted anywhere', () => {
    expect(exposureWarning('127.0.0.1', false)).toBeUndefined();
    expect(exposureWarning('0.0.0.0', true)).toBeUndefined();
  });
});
