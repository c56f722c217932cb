/**
 * The operator's API keys: given with --api-key, or made on first start (128 random bits each)
 * and kept in `<data-dir>/keys.json` so later starts print the same URLs.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { NetworkName } from './chain/index.js';

export interface ApiKey {
  key: string;
  network: NetworkName;
}

export const NETWORKS: readonly NetworkName[] = ['testnet', 'mainnet'];
const KEYS_FILE = 'keys.json';

function randomKey(): string {
  return randomBytes(16).toString('hex');
}

/** `dataDir` undefined (in memory): fresh keys each start, never written anywhere. */
export async function operatorKeys(dataDir: string | undefined): Promise<ApiKey[]> {
  if (dataDir === undefined) return NETWORKS.map((network) => ({ key: randomKey(), network }));
  const path = join(dataDir, KEYS_FILE);
  try {
    const stored = JSON.parse(await readFile(path, 'utf8')) as Record<NetworkName, string>;
    if (NETWORKS.every((n) => typeof stored[n] === 'string' && stored[n].length >= 32)) {
      return NETWORKS.map((network) => ({ key: stored[network], network }));
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const keys = NETWORKS.map((network) => ({ key: randomKey(), network }));
  await mkdir(dataDir, { recursive: true });
  // Write then rename, so a crash never leaves a half-written key file.
  await writeFile(`${path}.tmp`, `${JSON.stringify(Object.fromEntries(keys.map((k) => [k.network, k.key])), null, 2)}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
  return keys;
}

/** Parses `KEY[:testnet|mainnet]` (network defaults to testnet). */
export function parseApiKeyFlag(value: string): ApiKey {
  const [key, network = 'testnet', ...rest] = value.split(':');
  if (key === undefined || !/^[A-Za-z0-9_-]{8,128}$/.test(key) || rest.length > 0) {
    throw new Error(`--api-key ${value}: a key is 8-128 letters, digits, '-' or '_', optionally followed by :testnet or :mainnet`);
  }
  if (network !== 'testnet' && network !== 'mainnet') throw new Error(`--api-key ${value}: network must be testnet or mainnet`);
  return { key, network };
}
