/**
 * console.log through a Hardhat 2 project (issue 22): `npx hardhat test` compiles a contract that
 * imports hardhat/console.sol (and a console2-compatible library) with Hardhat's own build, deploys
 * and calls it on a node started with the hardhat profile; the node prints the lines under the
 * transaction's hash and under the eth_call.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

const PROJECT_DIR = fileURLToPath(new URL('../hardhat-console-project/', import.meta.url));
const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/contracts/', import.meta.url));

let t: TestNode;
let printed = '';
beforeAll(async () => {
  // The project compiles the fixtures' sources: copied in, never kept twice in git.
  mkdirSync(join(PROJECT_DIR, 'contracts'), { recursive: true });
  for (const name of ['ConsoleLogging.sol', 'Console2.sol']) copyFileSync(join(FIXTURES_DIR, name), join(PROJECT_DIR, 'contracts', name));
  t = await startTestNode({ profile: 'hardhat', logLevel: 'warn', logDestination: { write: (text: string) => void (printed += text) } });
});
afterAll(() => t?.close());

function hardhatTest(url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['hardhat', 'test', '--network', 'devnode'],
      {
        cwd: PROJECT_DIR,
        env: { ...process.env, RSK_DEVNODE_URL: url, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', FORCE_COLOR: '0', NO_COLOR: '1' },
        timeout: 240_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, output: `${stdout}\n${stderr}` }),
    );
  });
}

it('prints the console.log lines of a Hardhat-compiled contract under its transaction and its eth_call', async () => {
  const run = await hardhatTest(t.testnetUrl);
  expect(run.code, run.output).toBe(0);
  expect(run.output).toMatch(/1 passing/);
  const [, hash, from] = /LOGGED-TX (0x[0-9a-f]{64}) FROM (0x[0-9a-f]{40})/.exec(run.output)!;
  const lines = [
    'hello from rsk',
    `${from} has 1000 tokens`,
    (2n ** 256n - 1n).toString(),
    '-42',
    (-(2n ** 255n)).toString(),
    'true',
    from,
    '0xdeadbeef',
    `0x${'00'.repeat(31)}01`,
    'counter 1',
  ];
  expect(printed).toContain(`testnet tx ${hash} console.log:\n${lines.map((l) => `  ${l}\n`).join('')}`);
  expect(printed).toContain('testnet eth_call console.log:\n  viewLog(21)\n');
}, 240_000);
