/**
 * A Hardhat 2 project (test/hardhat-project: hardhat-ethers, hardhat-chai-matchers,
 * hardhat-network-helpers, solc-js from npm) runs `npx hardhat test` unchanged against a node
 * started with the hardhat profile, once with the node's own accounts and once with the keys in
 * Hardhat's config. Without the profile the node stays RSK-faithful: it answers as RskJ (so the
 * network helpers refuse it) and every block shows the REMASC transaction.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startTestNode, type TestNode } from '../helpers/node.js';

const PROJECT_DIR = fileURLToPath(new URL('../hardhat-project/', import.meta.url));
const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/contracts/', import.meta.url));

/** The Hardhat project compiles the same sources as the fixtures: copied in, never kept twice in git. */
function copyContracts(): void {
  mkdirSync(join(PROJECT_DIR, 'contracts'), { recursive: true });
  for (const name of ['Token.sol', 'Reverter.sol']) copyFileSync(join(FIXTURES_DIR, name), join(PROJECT_DIR, 'contracts', name));
}
const REMASC = '0x0000000000000000000000000000000001000008';

interface RunResult {
  code: number | null;
  output: string;
}

function hardhat(args: string[], url: string): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['hardhat', ...args],
      {
        cwd: PROJECT_DIR,
        env: { ...process.env, RSK_DEVNODE_URL: url, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', FORCE_COLOR: '0', NO_COLOR: '1' },
        timeout: 240_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : null;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

/** mocha's summary counts ("10 passing", "1 pending", "2 failing"); a missing line is 0. */
function summary(output: string) {
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm').exec(output)?.[1] ?? 0);
  return { passing: count('passing'), pending: count('pending'), failing: count('failing') };
}

describe('Hardhat project against the hardhat profile', () => {
  let t: TestNode;
  beforeAll(async () => {
    copyContracts();
    t = await startTestNode({ profile: 'hardhat' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers web3_clientVersion as HardhatNetwork and hides REMASC', async () => {
    expect((await rpc(t.testnetUrl, 'web3_clientVersion')).body.result).toMatch(/^HardhatNetwork\//);
    await rpc(t.testnetUrl, 'evm_mine');
    const block = (await rpc(t.testnetUrl, 'eth_getBlockByNumber', ['latest', true])).body.result;
    expect(block.transactions).toEqual([]);
    expect(block.baseFeePerGas).toBeUndefined();
  });

  // One `it`: both runs share the project's artifacts/cache, so they must not overlap.
  it('passes `npx hardhat test` with node-held accounts (devnode) and Hardhat-held keys at the keyless URL (devnodeKeys)', async () => {
    const remote = await hardhat(['test', '--network', 'devnode'], t.testnetUrl);
    expect(remote.code, remote.output).toBe(0);
    expect(summary(remote.output), remote.output).toEqual({ passing: 11, pending: 0, failing: 0 });

    // Same suite, Hardhat signing locally (eth_sendRawTransaction), at the URL without a key that
    // the profile serves (as Hardhat's `localhost` network would reach it). The impersonation test
    // skips itself there: Hardhat refuses to send from an address it holds no key for (HH103).
    const local = await hardhat(['test', '--network', 'devnodeKeys'], `${t.baseUrl}/`);
    expect(local.code, local.output).toBe(0);
    expect(summary(local.output), local.output).toEqual({ passing: 10, pending: 1, failing: 0 });
  }, 240_000);
});

describe('default profile (RSK-faithful)', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers as RskJ, so the network helpers refuse it, and shows REMASC in every block', async () => {
    expect((await rpc(t.testnetUrl, 'web3_clientVersion')).body.result).toMatch(/^RskJ\//);
    await rpc(t.testnetUrl, 'evm_mine');
    const block = (await rpc(t.testnetUrl, 'eth_getBlockByNumber', ['latest', true])).body.result;
    expect(block.transactions).toHaveLength(1);
    expect(block.transactions[0].to).toBe(REMASC);
  });
});
