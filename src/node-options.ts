/** The options of createNode (node.ts): what the CLI's flags and library users set. */
import type { ForkOptions, MinerMode } from './chain/index.js';
import type { KeylessSetting } from './keyless.js';
import type { LogDestination, LogLevel } from './logger.js';
import type { ApiKey } from './node-keys.js';
import type { HttpLimits } from './server/http.js';
import type { WebSocketLimits } from './server/websocket.js';

export interface NodeOptions {
  /** Data directory (default chain-data); ignored with inMemory. */
  dataDir?: string;
  /** Keep everything in memory (default true for the library, false for the CLI). */
  inMemory?: boolean;
  /** Operator keys; without any, one per network is made (and kept in the data directory). */
  apiKeys?: ApiKey[];
  minGasPrice?: bigint;
  blockGasLimit?: bigint;
  skipRemasc?: boolean;
  /** Interval mining every N seconds instead of automine (`--block-time`). */
  blockTime?: number;
  /** false: manual mining, transactions wait until evm_mine (`--no-mining`). */
  mining?: boolean;
  /**
   * false (`--no-auto-pegin`): the node's federation does not register confirmed peg-ins itself;
   * a test calls registerBtcTransaction (public since RSKIP199). Default true.
   */
  autoPegin?: boolean;
  /**
   * false (`--no-auto-pegout`): the node's federation does not carry peg-outs through itself
   * (updateCollections, addSignature, the release on the Bitcoin chain); a test drives them with
   * the federators' keys. Default true.
   */
  autoPegout?: boolean;
  /**
   * 'external' (`--miner external`): the node never mines by itself (no automine, no interval
   * mining); blocks come from merged miners through mnr_submitBitcoinBlock* and from evm_mine.
   */
  miner?: MinerMode;
  /** 'hardhat': what a Hardhat project needs (see HARDHAT_CLIENT_VERSION). */
  profile?: 'hardhat';
  /** eth_getLogs caps (default MAX_LOGS logs or MAX_LOG_BLOCK_RANGE blocks). */
  maxLogs?: number;
  maxLogBlockRange?: number;
  /** Idle time after which an unpolled filter is removed (default FILTER_IDLE_TIMEOUT_MS). */
  filterTimeoutMs?: number;
  /** Daily requests per dashboard user (default the spec's 25,000). */
  dailyLimit?: number;
  /** Behave like the hosted endpoint for dashboard keys (no node keys, no test control). */
  hosted?: boolean;
  /**
   * A network served at `/` without a key, for local tools (`--keyless-network`, keyless.ts);
   * default testnet under the Hardhat profile (off with hosted), else none. Loopback only unless
   * keylessBeyondLoopback.
   */
  keylessNetwork?: KeylessSetting;
  /** Serve the keyless network on an address beyond loopback too (`--keyless-beyond-loopback`). */
  keylessBeyondLoopback?: boolean;
  /** Wall clock in milliseconds for filter expiry, quota days and the Hardhat profile's genesis date (injectable for tests). */
  now?: () => number;
  /**
   * info: a line per block and transaction; debug adds each RPC method. Default warn (quiet): a
   * test suite embedding the node wants a clean terminal; the CLI defaults to info.
   */
  logLevel?: LogLevel;
  /** Where log lines go (default stdout). */
  logDestination?: LogDestination;
  /**
   * Do not print contracts' console.log lines (`--silent-console`). They are printed by default,
   * whatever the log level, except at 'silent'; `chains[network].events` still emits 'consoleLog'.
   */
  silentConsole?: boolean;
  /** Slow-client timeouts and the connection cap of the HTTP server (defaults in server/http.ts). */
  http?: HttpLimits;
  /** Limits on execution, filters and subscriptions (defaults: the named constants each names). */
  limits?: NodeLimits;
  /**
   * A state file to load at start (`--load-state`): this node's format replaces the chains it
   * holds; an anvil file's accounts are merged into both networks' latest state.
   */
  loadState?: string;
  /** Where to write both networks' state at close (`--dump-state`); gzip JSON (docs/state-file.md). */
  dumpState?: string;
  /** With dumpState: also write it every this many seconds (`--state-interval`). */
  stateIntervalSeconds?: number;
  /**
   * Base URL of the key URLs the dashboard's API answers (`--public-url`, e.g. behind a proxy);
   * default the address the server listens on. Never taken from the request's Host header.
   */
  publicUrl?: string;
  /** Fork live RSK nodes (`--fork-url` and friends); see NodeForkOptions. */
  fork?: NodeForkOptions;
}

/**
 * What to fork: `url` forks the network whose chain id the remote reports (30 mainnet, 31
 * testnet); `testnetUrl` / `mainnetUrl` fork that network and check the remote's chain id.
 * The other settings apply to every forked network.
 */
export interface NodeForkOptions extends Omit<ForkOptions, 'url'> {
  url?: string;
  testnetUrl?: string;
  mainnetUrl?: string;
}

export interface NodeLimits {
  /** eth_call's gas cap, which eth_estimateGas stays under too (CALL_GAS_CAP, --call-gas-cap). */
  callGasCap?: bigint;
  /** Time limit of one request's eth_call, eth_estimateGas and traces in ms; 0: none (EXECUTION_TIMEOUT_MS, --execution-timeout). */
  executionTimeoutMs?: number;
  /** The same for requests with the operator's keys and in-process ones; default executionTimeoutMs (--operator-execution-timeout). */
  operatorExecutionTimeoutMs?: number;
  /** Filters installed per API key and network (MAX_FILTERS_PER_KEY, --max-filters). */
  maxFilters?: number;
  /** Subscriptions per WebSocket connection (MAX_SUBSCRIPTIONS_PER_CONNECTION, --max-subscriptions). */
  maxSubscriptions?: number;
  /** Addresses in one log filter (MAX_FILTER_ADDRESSES, --filter-max-addresses). */
  maxFilterAddresses?: number;
  /** Topics per position in one log filter (MAX_FILTER_TOPICS, --filter-max-topics). */
  maxFilterTopics?: number;
  /** Slow WebSocket clients (defaults in server/websocket.ts). */
  webSocket?: WebSocketLimits;
}
