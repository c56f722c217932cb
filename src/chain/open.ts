/**
 * How a network's chain opens: its options, and the pieces the facade (chain.ts) is built on,
 * opened in order: the store, a fork's remote (resumed or connected and checked) or the refusal of
 * a forked store, the execution and head (the stored head, a fork's first block, or a new chain's
 * genesis), the address index, the miner's targets and the Bitcoin regtest chain.
 */
import { KECCAK256_RLP } from '@ethereumjs/util';
import { useFastRlp } from './base/rlp.js';
import { BtcChain } from './btc-chain/btc-chain.js';
import { createRskCommon } from './evm/rsk-common.js';
import { Execution } from './exec/execution.js';
import { commitForkBase, openFork, refuseForkedStore } from './fork-base.js';
import type { ForkConnection, ForkOptions } from './fork/open.js';
import { remoteBlockRecord } from './fork/remote-block.js';
import { ChainHead } from './head.js';
import type { NodeWallet } from './keys/wallet.js';
import type { MinerMode } from './mining/mode.js';
import { type MinerTargets, loadMinerTargets } from './mining/targets.js';
import { type NetworkName, blockReceipts } from './parts.js';
import type { RskBlock } from './records/block.js';
import { type GenesisConfig, buildGenesisBlock } from './records/genesis.js';
import { ChainStore } from './storage/store.js';

export interface ChainOptions {
  network: NetworkName;
  genesis: GenesisConfig;
  /** Directory of this network's LevelDB; undefined keeps the chain in memory. */
  location: string | undefined;
  /** Miner's minimum gas price target; on a new chain also the genesis minimum. */
  minGasPrice?: bigint;
  /** Miner's block gas limit target; on a new chain also the genesis gas limit. */
  blockGasLimit?: bigint;
  /** Wall clock in milliseconds (injectable for tests). */
  now?: () => number;
  /** Where failures of background work (interval mining) are reported. */
  onBackgroundError?: (err: unknown) => void;
  /** 'external': no automine or interval mining; blocks come from merged miners (mnr_) and evm_mine. */
  miner?: MinerMode;
  /** The node's keys (one wallet may serve both networks); default: the cow and miner keys only. */
  wallet?: NodeWallet;
  /**
   * Automine puts transactions in flight together into shared blocks (default true); false gives
   * every transaction its own block, as Hardhat does (the Hardhat profile).
   */
  automineBatching?: boolean;
  /**
   * A send whose automined transaction fails answers with the failure (SentTransactionFailed), the
   * transaction still mined, as Hardhat does (the Hardhat profile); default false: its hash, as rskj.
   */
  failOnSend?: boolean;
  /**
   * Fork a remote node of this network (same chain id) at a block: its state, blocks and
   * transactions up to there are read from it on demand (fork-base.ts, fork/).
   */
  fork?: ForkOptions;
  /**
   * The node's federation registers confirmed peg-ins itself, as the PowPeg nodes do (default
   * true; false, `--no-auto-pegin`: registerBtcTransaction is left to the caller).
   */
  autoPegin?: boolean;
  /**
   * The node's federation carries peg-outs through itself (updateCollections, two addSignatures,
   * the release mined on the Bitcoin chain; pegout-duty.ts), default true; false,
   * `--no-auto-pegout`: the caller drives them with the federators' keys.
   */
  autoPegout?: boolean;
}

/** What a chain is built on, opened and loaded. */
export interface ChainPieces {
  store: ChainStore;
  head: ChainHead;
  targets: MinerTargets;
  /** The fork's remote, when the chain is a fork. */
  forkConnection: ForkConnection | undefined;
  btc: BtcChain;
}

/**
 * Opens what a chain is built on and hands it to `build` (the facade's constructor); on failure,
 * `build`'s included, closes what it opened (the fork's connection, the store).
 */
export async function openChain<T>(options: ChainOptions, build: (pieces: ChainPieces) => T): Promise<T> {
  useFastRlp();
  const store = await ChainStore.open(options.location);
  let fork: Awaited<ReturnType<typeof openFork>> | undefined;
  try {
    const common = createRskCommon(options.genesis.chainId, `rsk-${options.network}`);
    if (options.fork === undefined) await refuseForkedStore(store);
    else fork = await openFork(store, options.fork, BigInt(options.genesis.chainId));
    const remote = fork?.connection.remote;
    // BLOCKHASH reads blocks up to the head; the head exists once loaded below. A fork's blocks
    // below the fork block are the remote's (the remote of the moment: a fork can move).
    const blocks = (n: bigint) => {
      const now = execution.remote as typeof remote;
      return now !== undefined && n < now.forkBlock ? remoteBlockRecord(now, n) : head.blockByNumber(n);
    };
    const execution: Execution = new Execution(common, blocks, remote);
    const head: ChainHead = new ChainHead(execution, store, remote?.forkBlock ?? 0n);
    const headBlock = fork?.baseBlock === undefined ? await loadHeadBlock(store, execution, options) : await commitForkBase(store, execution, options.genesis, fork.connection, fork.baseBlock);
    await head.load(headBlock);
    await store.ensureAddressIndex(head.baseNumber);
    const targets = await loadMinerTargets(store, options, (await store.getBlock(head.baseNumber))!);
    const btc = await BtcChain.open(store, options.now ?? Date.now);
    execution.followBtc(btc);
    return build({ store, head, targets, forkConnection: fork?.connection, btc });
  } catch (err) {
    await fork?.connection.close();
    await store.close();
    throw err;
  }
}

/** The stored head, or a new chain's genesis block (built and committed). */
async function loadHeadBlock(store: ChainStore, execution: Execution, options: ChainOptions): Promise<RskBlock> {
  const headNumber = await store.headNumber();
  if (headNumber !== undefined) {
    const head = await store.getBlock(headNumber);
    if (head === undefined) throw new Error(`chain data is damaged: head block ${headNumber} is missing`);
    return head;
  }
  const genesis = await buildGenesisBlock(options.genesis, execution.stateManager(store.stateDb, KECCAK256_RLP), {
    gasLimit: options.blockGasLimit,
    minimumGasPrice: options.minGasPrice,
  });
  await store.commitBlock(genesis, blockReceipts(genesis, []));
  return genesis;
}
