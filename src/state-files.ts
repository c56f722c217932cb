/**
 * The state file flags: `--load-state FILE` at start (both networks, or the one the file holds),
 * `--dump-state FILE` written at close and, with `--state-interval S`, every S seconds. The file
 * format and its checks are the chain's (chain/dump/, docs/state-file.md).
 */
import { type Chain, type NetworkName, writeStateFile } from './chain/index.js';
import type { Logger } from './logger.js';

type Chains = Readonly<Record<NetworkName, Chain>>;
const ORDER: readonly NetworkName[] = ['testnet', 'mainnet'];

/**
 * Loads `path` into every network it holds a chain for (an anvil file: its accounts into both).
 * Every section is read and checked before any network changes.
 */
export async function loadStateFile(chains: Chains, path: string): Promise<void> {
  const loads = await Promise.all(ORDER.map((n) => chains[n].prepareStateLoad({ name: path, path })));
  if (loads.every((load) => load === undefined)) {
    throw new Error(`state file ${path}: it holds no chain with chain id ${ORDER.map((n) => chains[n].chainId).join(' or ')}; nothing was loaded`);
  }
  for (const load of loads) await load?.();
}

/** Both networks to `path` (gzip; written beside it, then renamed over it). */
export function dumpStateFile(chains: Chains, path: string): Promise<void> {
  return chains.testnet.dumpState((testnet) => chains.mainnet.dumpState((mainnet) => writeStateFile(path, [testnet, mainnet])));
}

/**
 * `--dump-state`: every `intervalSeconds` (if given) and once more at close. A failed periodic
 * dump is logged and tried again next time; the file keeps the last complete one.
 */
export function scheduleStateDumps(chains: Chains, path: string, intervalSeconds: number | undefined, logger: Logger): { final(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const dump = () => {
    running = running.then(() => dumpStateFile(chains, path));
    return running;
  };
  const timer =
    intervalSeconds === undefined
      ? undefined
      : setInterval(() => dump().catch((err: unknown) => logger.error({ err, file: path }, 'state dump failed')), intervalSeconds * 1000).unref();
  return {
    async final() {
      clearInterval(timer);
      await running.catch(() => undefined);
      await dump();
      logger.info({ file: path }, `state written to ${path}`);
    },
  };
}
