/**
 * What the measuring scripts of scripts/profile share (issue 25's duplicate hygiene): the server's
 * CPU time read from /proc (profile-requests, write-path), and the transfer chain the explorer and
 * Otterscan measures build (explorer-measure, ots-search-measure).
 * Each function was written twice before; the scripts import it from here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { Wallet } from 'ethers';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a /proc stat line, in microseconds: fields 14 and 15, counted after the ") " that ends the thread name. */
function statCpuMicros(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/** CPU time (user + system) used so far, in microseconds, by each thread name of a process (V8's GC helpers, libuv's pool, ...). */
export function cpuByThread(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // a thread that ended meanwhile
    }
    // Unnamed threads (LevelDB's background thread among them) inherit the process's name: the main thread is told apart by its id.
    const name = task === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    byName.set(name, (byName.get(name) ?? 0) + statCpuMicros(stat));
  }
  return byName;
}

/** CPU time (user + system) a process has used so far, in microseconds. */
export function cpuMicros(pid: number): number {
  return statCpuMicros(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** rskj's regtest account keccak256('cow'), funded on genesis. */
const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
/** The testnet's chain id: the in-process node of the measures starts on testnet. */
const TESTNET_CHAIN_ID = 31;
/** Above the genesis minimum gas price (60,000,000). */
const TRANSFER_GAS_PRICE = 70_000_000n;
/** Progress goes to stderr about every this many blocks. */
const PROGRESS_BLOCKS = 10_000;

type Request = (method: string, params: unknown[]) => Promise<unknown>;

/**
 * Builds the measured chain through a node's provider: (with `lone`) one transfer to `lone` in
 * block 1, then one transfer to `watched` every `every` blocks up to `blocks`, empty blocks (REMASC
 * only, hardhat_mine) between. The last transfer's hash and the seconds the build took.
 */
export async function buildTransferChain(
  request: Request,
  options: { blocks: number; every: number; watched: string; lone?: string },
): Promise<{ lastTx: string; seconds: number }> {
  const { blocks, every, watched, lone } = options;
  const wallet = new Wallet(COW_KEY);
  let nonce = Number(await request('eth_getTransactionCount', [wallet.address, 'latest']));
  let lastTx = '';
  const transfer = async (to: string) => {
    const raw = await wallet.signTransaction({ type: 0, chainId: TESTNET_CHAIN_ID, nonce: nonce++, gasPrice: TRANSFER_GAS_PRICE, gasLimit: 21_000n, to, value: 1n });
    lastTx = (await request('eth_sendRawTransaction', [raw])) as string;
  };
  const started = performance.now();
  let head = 0;
  if (lone !== undefined) {
    await transfer(lone);
    head = 1;
  }
  while (head < blocks) {
    const gap = Math.min(every - 1, blocks - head);
    if (gap > 0) await request('hardhat_mine', [`0x${gap.toString(16)}`]);
    head += gap;
    if (head < blocks) {
      await transfer(watched);
      head++;
    }
    if (head % PROGRESS_BLOCKS < every) process.stderr.write(`\r${head} blocks`);
  }
  process.stderr.write('\n');
  return { lastTx, seconds: (performance.now() - started) / 1000 };
}
