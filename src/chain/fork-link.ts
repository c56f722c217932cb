/**
 * A forked chain's link to its remotes: the connection of the moment (hardhat_/anvil_reset with
 * `forking` moves it in place, fork-base.ts reforkChain), what the layers above see of it
 * (ChainFork), account reads below the fork block, and every connection the chain opened, closed
 * with the chain. A chain that is not a fork has none and refuses a re-fork.
 */
import { KECCAK256_RLP } from '@ethereumjs/util';
import { ChainError } from './base/errors.js';
import type { TestControl } from './control.js';
import { type ChainFork, chainFork, reforkChain } from './fork-base.js';
import { type ForkConnection, type ForkOptions, ForkStartError, connectFork } from './fork/open.js';
import type { ChainParts } from './parts.js';
import type { GenesisConfig } from './records/genesis.js';
import type { StateReader } from './state/flat-view.js';
import { RemoteBackedStateManager } from './state/remote-backed-state-manager.js';

/** What a re-fork keeps of how the chain started. */
export interface ForkSettings {
  /** The start's fork options (cache, flags, retry settings carry over to a re-fork). */
  fork: ForkOptions | undefined;
  genesis: GenesisConfig;
  chainId: bigint;
}

export class ForkLink {
  /** The remote this chain forks, if it is a fork (a re-fork in place changes it). */
  fork: ChainFork | undefined;
  /** The fork connections this chain opened (a re-fork adds one); closed with the chain. */
  private readonly connections: ForkConnection[] = [];

  /** `forgetOldRemote`: drops what still reads the old remote beyond the parts (the miner's state manager). */
  constructor(
    private readonly parts: ChainParts,
    private readonly control: TestControl,
    private readonly settings: ForkSettings,
    private connection: ForkConnection | undefined,
    private readonly forgetOldRemote: () => void,
  ) {
    this.fork = connection === undefined ? undefined : chainFork(connection, () => this.remoteRequests());
    if (connection !== undefined) this.connections.push(connection);
  }

  /**
   * On a fork, account reads at a block below the fork block: the remote's state there, read on
   * demand and cached under that block (an empty local trie over it, so nothing local shows).
   */
  stateBelowFork(number: bigint): StateReader {
    const remote = this.connection?.remote;
    if (remote === undefined || number >= remote.forkBlock) throw new Error(`stateBelowFork(${number}): not below a fork block`);
    const { common, execution, store } = this.parts;
    return new RemoteBackedStateManager({ common, trie: execution.trie(store.stateDb, KECCAK256_RLP) }, remote.at(number));
  }

  /**
   * hardhat_/anvil_reset with `forking`: fork `url` at `block` (default: its latest) from now on,
   * in place: another block of the same remote or another remote of this network. The remote is
   * checked first (its chain id must be this chain's, it must have the block); if it fails, the
   * fork is unchanged. The fork cache, its flags and its retry settings carry over.
   */
  async refork(url: string, block: bigint | undefined): Promise<void> {
    const current = this.connection;
    if (current === undefined) throw new ChainError('invalidArgument', 'this chain is not a fork');
    const options: ForkOptions = { ...this.settings.fork, url, block, offline: false, cacheDir: undefined };
    let connected;
    try {
      connected = await connectFork(options, this.settings.chainId, current.cacheStore, undefined);
    } catch (err) {
      if (err instanceof ForkStartError) throw new ChainError('invalidArgument', `${err.message}; the fork is unchanged`);
      throw err;
    }
    const { connection, baseBlock } = connected;
    await reforkChain(this.parts, this.control, this.settings.genesis, connection, baseBlock!, this.forgetOldRemote);
    this.connection = connection;
    this.connections.push(connection);
    this.fork = chainFork(connection, () => this.remoteRequests());
  }

  /** Closes every connection this chain opened (after the store, as the chain closes). */
  async close(): Promise<void> {
    for (const connection of this.connections) await connection.close();
  }

  /** HTTP requests sent to remotes since start, over every fork this chain has had. */
  private remoteRequests(): number {
    return this.connections.reduce((sum, connection) => sum + connection.remote.requests, 0);
  }
}
