/**
 * A forked chain's start: its first local block is the remote's fork block, kept with the
 * remote's hash and header fields (RSK hashes cannot be recomputed from an Ethereum-style header)
 * and a local state root: an empty local trie, where every read falls through to the remote
 * (state/remote-backed-state-manager.ts), plus the genesis allocation's dev balances (their
 * remote nonce and code kept). New blocks are local and numbered on from it, their parent hash
 * the remote block's. The fork record (remote chain id, fork block and its hash) is committed with it, so a
 * restart on the same data directory resumes the fork without asking the remote anything.
 */
import { Account, Address, KECCAK256_RLP, bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util';
import type { Execution } from './exec/execution.js';
import { type ForkConnection, type ForkOptions, ForkStartError, connectFork } from './fork/open.js';
import type { RemoteJson } from './fork/remote-state.js';
import type { LogCriteria } from './storage/log-index.js';
import type { ForkPoint } from './dump/format.js';
import type { GenesisConfig } from './records/genesis.js';
import type { RskBlock } from './records/block.js';
import { rskBlockFromJson } from './fork/remote-block.js';
import { blockReceipts } from './parts.js';
import { TombstoneTrie, remoteStorageRoot } from './state/tombstone-trie.js';
import type { ChainStore } from './storage/store.js';
import type { ChainParts } from './parts.js';
import type { TestControl } from './control.js';
import { isStateMeta } from './head.js';

/** Store meta record of a forked chain: JSON {chainId, block, hash} of the remote fork block. */
export const FORK_META = 'fork';

interface ForkRecord {
  chainId: string;
  block: string;
  /** The remote fork block's hash (the fork cache's scope). */
  hash: string;
}

/**
 * The fork of this chain's data directory (resumed) or a new one (connected and checked); a
 * data directory holding a chain that is not a fork, or a fork of another block, is refused.
 */
export async function openFork(store: ChainStore, options: ForkOptions, chainId: bigint): Promise<{ connection: ForkConnection; baseBlock: RemoteJson | undefined }> {
  const stored = await store.getMeta(FORK_META);
  const record = stored === undefined ? undefined : (JSON.parse(new TextDecoder().decode(stored)) as ForkRecord);
  if (record === undefined && (await store.headNumber()) !== undefined) {
    throw new ForkStartError('fork: this data directory holds a chain that is not a fork; fork into another --data-dir (or use --in-memory)');
  }
  if (record !== undefined) {
    const block = BigInt(record.block);
    if (BigInt(record.chainId) !== chainId) throw new ForkStartError(`fork: this data directory holds a fork of chain ${record.chainId}, not ${chainId}`);
    if (options.block !== undefined && options.block !== block) {
      throw new ForkStartError(`fork: this data directory holds a fork at block ${block}, not ${options.block}; fork into another --data-dir to fork elsewhere`);
    }
    return connectFork(options, chainId, store.forkCacheStore(), { block, hash: hexToBytes(record.hash as `0x${string}`) });
  }
  return connectFork(options, chainId, store.forkCacheStore(), undefined);
}

/** The remote block this chain forks, from its fork record; undefined for a plain chain. */
export async function storedForkPoint(store: ChainStore): Promise<ForkPoint | undefined> {
  const stored = await store.getMeta(FORK_META);
  if (stored === undefined) return undefined;
  const record = JSON.parse(new TextDecoder().decode(stored)) as ForkRecord;
  return { chainId: BigInt(record.chainId), block: BigInt(record.block), hash: hexToBytes(record.hash as `0x${string}`) };
}

/** A data directory holding a fork cannot start as a plain chain. */
export async function refuseForkedStore(store: ChainStore): Promise<void> {
  if ((await store.getMeta(FORK_META)) !== undefined) {
    throw new ForkStartError('this data directory holds a fork: start with --fork-url (or --fork-offline), or use another --data-dir');
  }
}

/**
 * Moves a fork to another remote block in place (hardhat_/anvil_reset with `forking`): the local
 * blocks go, as after a reset, and the chain starts again from the new fork block, as a new fork
 * starts. Snapshots, the pool and the clock settings go too; filters and subscriptions start over.
 * Runs under the chain's lock.
 */
export async function reforkChain(
  parts: ChainParts,
  control: TestControl,
  genesis: GenesisConfig,
  connection: ForkConnection,
  baseBlock: RemoteJson,
  /** Drops what still reads the old remote beyond the parts (the miner's state manager). */
  forgetOldRemote: () => void,
): Promise<void> {
  const { lock, store, head, execution, pool, clock, events } = parts;
  await lock.run(async () => {
    let base!: RskBlock;
    await store.restartChain(
      isStateMeta,
      async () => {
        execution.refork(connection.remote);
        forgetOldRemote();
        head.baseNumber = connection.blockNumber;
        return commitForkBase(store, execution, genesis, connection, baseBlock);
      },
      async (block) => {
        base = block;
        await head.replaced(block);
        pool.clear();
        clock.reset();
        control.forgetSnapshots();
        control.renewInstance();
      },
    );
    events.emit('rewind', [], base);
  });
}

/** Commits a new fork's first block: the remote fork block on the local state described in the header. */
export async function commitForkBase(store: ChainStore, execution: Execution, genesis: GenesisConfig, connection: ForkConnection, json: RemoteJson): Promise<RskBlock> {
  const trie = execution.trie(store.stateDb, KECCAK256_RLP);
  if (!(trie instanceof TombstoneTrie) || !equalsBytes(await trie.writeMarkerNode(), remoteStorageRoot())) {
    throw new Error('fork: the remote-storage marker trie has an unexpected root');
  }
  const state = execution.stateManager(store.stateDb, KECCAK256_RLP);
  for (const [address, balance] of genesis.alloc) {
    const at = new Address(hexToBytes(address as `0x${string}`));
    const account = (await state.getAccount(at)) ?? new Account();
    account.balance = balance;
    await state.putAccount(at, account);
  }
  const block = rskBlockFromJson(json, await state.getStateRoot());
  const record: ForkRecord = { chainId: connection.chainId.toString(), block: connection.blockNumber.toString(), hash: bytesToHex(connection.blockHash) };
  await store.commitBlock(block, blockReceipts(block, []), { name: FORK_META, value: new TextEncoder().encode(JSON.stringify(record)) });
  return block;
}

/** What the layers above see of a fork: which remote block, and the remote's history up to it. */
export interface ChainFork {
  readonly chainId: bigint;
  readonly blockNumber: bigint;
  readonly url: string | undefined;
  /** HTTP requests sent to the remote since start. */
  readonly remoteRequests: number;
  blockByNumber(number: bigint, full: boolean): Promise<RemoteJson | null>;
  blockByHash(hash: Uint8Array, full: boolean): Promise<RemoteJson | null>;
  transaction(hash: Uint8Array): Promise<RemoteJson | null>;
  receipt(hash: Uint8Array): Promise<RemoteJson | null>;
  /** The remote's logs over a range ending at or below the fork block. */
  logs(criteria: LogCriteria): Promise<RemoteJson[]>;
}

/** `requests`: the HTTP requests sent so far, by every connection this chain has had (a re-fork adds one). */
export function chainFork(connection: ForkConnection, requests: () => number): ChainFork {
  const { remote } = connection;
  return {
    chainId: connection.chainId,
    blockNumber: connection.blockNumber,
    url: connection.url,
    get remoteRequests() {
      return requests();
    },
    blockByNumber: (number, full) => remote.blockByNumber(number, full),
    blockByHash: (hash, full) => remote.blockByHash(hash, full),
    transaction: (hash) => remote.transaction(hash),
    receipt: (hash) => remote.receipt(hash),
    logs: (criteria) => remote.logs(criteria),
  };
}
