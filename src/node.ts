/**
 * createNode: the two networks' chains, the operator's keys, the dispatcher, and (on request) the
 * HTTP server. The library entry point and what the CLI runs.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Server } from 'node:http';
import {
  Chain,
  type ConsoleLogEntry,
  type ForkOptions,
  ForkStartError,
  type GenesisConfig,
  decodeMergedMining,
  type NetworkName,
  NodeWallet,
  readGenesisFile,
  redactedUrl,
  remoteChainId,
  secp256k1,
  startFastKeccak,
  MAX_LOGS,
  MAX_LOG_BLOCK_RANGE,
} from './chain/index.js';
import { FilterManager } from './rpc/filter-manager.js';
import { Dispatcher } from './rpc/dispatcher.js';
import { mapError } from './rpc/map-error.js';
import { METHODS } from './rpc/methods/index.js';
import type { RpcContext, RpcOptions } from './rpc/context.js';
import { MAX_CONNECTIONS, createHttpServer, listen } from './server/http.js';
import { guardConnections, maxConnectionsPerAddress, refuseBanned } from './server/connection-guard.js';
import { attachWebSocketLazily, lazyApp } from './server/lazy.js';
import { warmUpWhenReady } from './server/warm-up.js';
import { MAX_FILTER_ADDRESSES, MAX_FILTER_TOPICS } from './rpc/filter-params.js';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from './rpc/subscriptions.js';
import { createRpcGate } from './server/rpc-route.js';
import { explorerSocket } from './server/explorer-socket.js';
import { exposureWarning } from './server/exposure.js';
import { ClientTrackingDispatcher } from './server/client-tracking.js';
import { BAN_LIST_FILE, BanList } from './gateway/ban-list.js';
import { ClientReputation } from './gateway/client-reputation.js';
import { Gateway } from './gateway/gateway.js';
import { DEFAULT_DAILY_LIMIT } from './gateway/quota.js';
import { type ApiKey, NETWORKS, operatorKeys } from './node-keys.js';
import { createLogger, type Logger } from './logger.js';
import { Eip1193Provider } from './provider.js';
import { SubscriptionHost } from './rpc/subscriptions.js';
import { DataDirInUseError, isDatabaseLocked } from './data-dir-in-use.js';
import { logMinedBlocks } from './log/chain-log.js';
import { printConsoleLogs } from './log/console-log.js';
import { rpcCallLogger } from './log/rpc-log.js';
import { packagePath } from './package-paths.js';
import { checkKeylessOptions, keylessNetworkFor } from './keyless.js';
import { loadStateFile, scheduleStateDumps } from './state-files.js';

import type { NodeForkOptions, NodeOptions } from './node-options.js';

export const VERSION = '0.1.0';
export const CLIENT_VERSION = `RskJ/rsk-devnode-${VERSION}/${process.platform}/Node${process.versions.node.split('.')[0]}`;

/** What an in-process provider answers once its node is closed (with EIP-1193's 4900). */
export { redactedUrl, MAX_LOGS, MAX_LOG_BLOCK_RANGE } from './chain/index.js';
export const NODE_CLOSED_MESSAGE = 'Disconnected: this rsk-devnode node is closed (node.close() was called); start a new one with createNode()';

/** Most calls one batch may hold. */
export const MAX_BATCH_SIZE = 1000;

export type { NodeForkOptions, NodeLimits, NodeOptions } from './node-options.js';

/**
 * Hardhat's network helpers accept a node only when web3_clientVersion starts with
 * "HardhatNetwork" or "anvil", and its balance-change matchers refuse blocks holding more than
 * one transaction: the profile answers as HardhatNetwork and hides REMASC (rskj's rpc.skipRemasc).
 */
export const HARDHAT_CLIENT_VERSION = `HardhatNetwork/2.22.0/rsk-devnode-${VERSION}`;

export interface RunningServer {
  url: string;
  port: number;
  /** The network this server answers at `/` without a key, if any. */
  keylessNetwork: NetworkName | undefined;
  close(): Promise<void>;
}

export interface DevNode {
  readonly chains: Readonly<Record<NetworkName, Chain>>;
  readonly apiKeys: readonly ApiKey[];
  /** EIP-1193 provider for the testnet chain, through the same dispatcher as HTTP; after close() it rejects with 4900. */
  readonly provider: Eip1193Provider;
  /** EIP-1193 provider for a network's chain. */
  providerFor(network: NetworkName): Eip1193Provider;
  /** Handles a raw JSON-RPC body for a network, as the HTTP path does after auth. */
  handle(network: NetworkName, body: string): Promise<{ status: number; body: string }>;
  server(port?: number, host?: string): Promise<RunningServer>;
  close(): Promise<void>;
}

async function genesisPath(dataDir: string | undefined, network: NetworkName): Promise<string> {
  const file = `${network}.genesis.json`;
  if (dataDir !== undefined) {
    const own = join(dataDir, file);
    try {
      await access(own);
      return own;
    } catch {
      // no genesis file of its own: use the packaged default
    }
  }
  return packagePath('chain-data', file);
}

export async function createNode(options: NodeOptions = {}): Promise<DevNode> {
  checkMinerOption(options);
  checkKeylessOptions(options);
  checkStateOptions(options);
  const inMemory = options.inMemory ?? true;
  const dataDir = inMemory ? undefined : (options.dataDir ?? 'chain-data');
  const logger = createLogger(options.logLevel ?? 'warn', options.logDestination);
  const now = options.now ?? Date.now;
  // Node-wide (both networks): the ban list (kept in the data directory) and the clients' reputation.
  // The WebAssembly Keccak is set up before the genesis tries are hashed: the JavaScript one, not
  // yet optimised by the JIT, costs more than setting it up.
  const [bans] = await Promise.all([BanList.open(dataDir === undefined ? undefined : join(dataDir, BAN_LIST_FILE)), startFastKeccak()]);
  const clients = { bans, reputation: new ClientReputation(now) };
  const { chains, gateway } = await openDatabases(dataDir, options, now, logger);
  if (options.loadState !== undefined) {
    try {
      await loadStateFile(chains, options.loadState);
    } catch (err) {
      await Promise.all(NETWORKS.map((n) => chains[n].close()));
      chains.testnet.wallet.close();
      await gateway.close();
      throw err;
    }
  }
  const stateDumps = options.dumpState === undefined ? undefined : scheduleStateDumps(chains, options.dumpState, options.stateIntervalSeconds, logger);
  const limits = options.limits ?? {};
  for (const chain of Object.values(chains)) {
    if (limits.callGasCap !== undefined) chain.execution.callGasCap = limits.callGasCap;
    if (limits.executionTimeoutMs !== undefined) chain.execution.timeoutMs = limits.executionTimeoutMs;
    chain.execution.operatorTimeoutMs = limits.operatorExecutionTimeoutMs;
  }
  const apiKeys = options.apiKeys?.length ? options.apiKeys : await operatorKeys(dataDir);
  const keyToNetwork = new Map(apiKeys.map((k) => [k.key, k.network]));
  const hardhat = options.profile === 'hardhat';
  const rpcOptions: RpcOptions = {
    skipRemasc: options.skipRemasc ?? hardhat,
    clientVersion: hardhat ? HARDHAT_CLIENT_VERSION : CLIENT_VERSION,
    hardhatProfile: hardhat,
    logLimits: { maxLogs: options.maxLogs ?? MAX_LOGS, maxBlockRange: BigInt(options.maxLogBlockRange ?? MAX_LOG_BLOCK_RANGE) },
    filterLimits: { maxAddresses: limits.maxFilterAddresses ?? MAX_FILTER_ADDRESSES, maxTopics: limits.maxFilterTopics ?? MAX_FILTER_TOPICS },
    maxSubscriptions: limits.maxSubscriptions ?? MAX_SUBSCRIPTIONS_PER_CONNECTION,
  };
  for (const chain of Object.values(chains)) {
    if (options.mining === false || options.blockTime !== undefined) chain.setAutomine(false);
    if (options.blockTime !== undefined && options.mining !== false) chain.setIntervalMining(options.blockTime * 1000);
  }
  const contexts = Object.fromEntries(
    NETWORKS.map((n) => [n, { chain: chains[n], filters: new FilterManager(chains[n], options.filterTimeoutMs, now, limits.maxFilters), options: rpcOptions, clients }]),
  ) as Record<NetworkName, RpcContext>;
  const dispatcher: Dispatcher<RpcContext> = new ClientTrackingDispatcher(METHODS, {
    maxBatch: MAX_BATCH_SIZE,
    mapError: (err, method) => mapError(err, (unexpected) => logger.error({ err: unexpected, method }, 'unexpected error in RPC handler')),
  });
  const servers = new Set<Server>();
  const logCalls = rpcCallLogger(logger);
  const stopChainListeners = NETWORKS.map((n) => logMinedBlocks(chains[n], logger));
  if (options.silentConsole !== true && options.logLevel !== 'silent') {
    stopChainListeners.push(...NETWORKS.map((n) => printConsoleLogs(chains[n], options.logDestination ?? process.stdout)));
  }
  const subscriptionHosts: SubscriptionHost[] = [];

  const handle = (network: NetworkName, body: string) => dispatcher.handleBody(body, { ...contexts[network], deadline: chains[network].execution.deadline(true) });
  const providers = Object.fromEntries(NETWORKS.map((n) => [n, inProcessProvider(n)])) as Record<NetworkName, Eip1193Provider>;

  /** The in-process provider: eth_subscribe works through it, pushing EIP-1193 `message` events. */
  function inProcessProvider(network: NetworkName): Eip1193Provider {
    let context: RpcContext | undefined;
    const provider = new Eip1193Provider((request) => {
      logCalls(network, request);
      return dispatcher.handleRequest(request, { ...context!, deadline: chains[network].execution.deadline(true) });
    }, `0x${chains[network].chainId.toString(16)}`);
    const subscriptions = new SubscriptionHost(chains[network], (message) => {
      provider.emit('message', { type: 'eth_subscription', data: (JSON.parse(message) as { params: unknown }).params });
    }, rpcOptions.skipRemasc);
    subscriptionHosts.push(subscriptions);
    // Contracts' console.log lines, for users who hold only the provider (the chain's own event).
    const onConsole = (entry: ConsoleLogEntry) => void provider.emit('consoleLog', entry);
    chains[network].events.on('consoleLog', onConsole);
    stopChainListeners.push(() => void chains[network].events.off('consoleLog', onConsole));
    context = { ...contexts[network], subscriptions };
    return provider;
  }

  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  let closed: Promise<void> | undefined;

  return {
    chains,
    apiKeys,
    provider: providers.testnet,
    providerFor: (network) => providers[network],
    handle,
    async server(port = 0, host = '127.0.0.1') {
      // Per server: whether `/` answers without a key depends on where the server listens.
      const keylessNetwork = keylessNetworkFor(options, host);
      const gate = createRpcGate({ dispatcher, operatorKeys: keyToNetwork, keylessNetwork, gateway, contexts, hosted: options.hosted ?? false, maxBatch: MAX_BATCH_SIZE, logCalls, clients });
      // Key URLs are built from where the node listens (known once it does), never from a Host header.
      let url = '';
      const app = lazyApp({
        clientVersion: CLIENT_VERSION,
        networks: NETWORKS.map((n) => ({ network: n, chainId: Number(chains[n].chainId), blockNumber: () => chains[n].head.header.number, fork: () => forkStatus(chains[n]) })),
        publicUrl: () => publicUrl ?? url,
        explorer: {
          handle,
          hosted: options.hosted ?? false,
          mergedMining: async (network, hash) => {
            const block = await chains[network].blockByHash(hash);
            return block === undefined ? undefined : decodeMergedMining(block);
          },
        },
      }, gateway);
      const server = createHttpServer(gate.http, refuseBanned(app, clients), options.http);
      const http = options.http ?? {};
      guardConnections(server, clients, http.maxConnectionsPerAddress ?? maxConnectionsPerAddress(http.maxConnections ?? MAX_CONNECTIONS));
      attachWebSocketLazily(server, { ...gate.webSocket, sideSockets: [explorerSocket({ dispatcher, contexts, hosted: options.hosted ?? false })] }, limits.webSocket);
      const address = await listen(server, port, host);
      servers.add(server);
      const warning = exposureWarning(host, options.hosted ?? false);
      if (warning !== undefined) logger.warn(warning);
      warmUpWhenReady(server, () => {
        secp256k1();
        // A failed load is no start-up error: the first block build or call meets it again and reports it.
        for (const n of NETWORKS) chains[n].execution.runtime().catch(() => undefined);
      });
      url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
      return {
        url,
        port: address.port,
        keylessNetwork,
        close: () => closeServer(server).then(() => void servers.delete(server)),
      };
    },
    close() {
      closed ??= (async () => {
        // Refuse in-process calls first: a closed node must not keep answering from memory.
        for (const provider of Object.values(providers)) provider.disconnect(NODE_CLOSED_MESSAGE);
        for (const host of subscriptionHosts) host.close();
        for (const stop of stopChainListeners) stop();
        await Promise.all([...servers].map(closeServer));
        servers.clear();
        try {
          await stateDumps?.final();
        } finally {
          await Promise.all(NETWORKS.map((n) => chains[n].close()));
        }
        // Both chains share one wallet: forget its unlocked keys with them.
        chains.testnet.wallet.close();
        await gateway.close();
      })();
      return closed;
    },
  };
}

/** Both chains and the gateway; on failure closes what opened and explains a locked data directory. */
async function openDatabases(
  dataDir: string | undefined,
  options: NodeOptions,
  now: () => number,
  logger: Logger,
): Promise<{ chains: Record<NetworkName, Chain>; gateway: Gateway }> {
  const chains = {} as Record<NetworkName, Chain>;
  // One wallet for both networks: a key is an address on either chain (personal_, keystores in <data-dir>/keystore).
  const wallet = await NodeWallet.open({ keystoreDir: dataDir === undefined ? undefined : join(dataDir, 'keystore'), now });
  // The three databases open side by side: their disk reads overlap.
  const genesis = Object.fromEntries(await Promise.all(NETWORKS.map(async (n) => [n, await readGenesisFile(await genesisPath(dataDir, n))] as const))) as Record<NetworkName, GenesisConfig>;
  const forks = await forkTargets(options.fork, genesis);
  const chainOpens = NETWORKS.map(async (network) => {
    const networkGenesis = genesis[network];
    chains[network] = await Chain.open({
      network,
      // rskj's regtest genesis is dated 0; Hardhat dates its genesis at start-up, so a fixture that
      // reads "now" from the latest block starts today. A genesis file with a date of its own keeps
      // it, and only a new chain uses this: a stored one keeps its genesis.
      genesis: options.profile === 'hardhat' && networkGenesis.timestamp === 0n ? { ...networkGenesis, timestamp: BigInt(Math.floor(now() / 1000)) } : networkGenesis,
      fork: forks[network] && {
        ...forks[network],
        // Beside an in-memory chain the cache is in memory too, unless it has a directory of its own.
        cacheDir: options.fork?.cacheDir === undefined ? undefined : join(options.fork.cacheDir, network),
      },
      location: dataDir === undefined ? undefined : join(dataDir, network),
      minGasPrice: options.minGasPrice,
      miner: options.miner,
      // Hardhat's balance-change matchers want one transaction per block, as Hardhat mines them.
      automineBatching: options.profile !== 'hardhat',
      // Hardhat answers a send whose transaction reverts with the revert (hardhat-chai-matchers' revertedWith needs it).
      failOnSend: options.profile === 'hardhat',
      blockGasLimit: options.blockGasLimit,
      autoPegin: options.autoPegin,
      autoPegout: options.autoPegout,
      onBackgroundError: (err) => logger.error({ err, network }, 'background work failed (interval mining or a federation duty)'),
      wallet,
    });
  });
  const gatewayOpen = Gateway.open({
    location: dataDir === undefined ? undefined : join(dataDir, 'gateway'),
    dailyLimit: options.dailyLimit ?? DEFAULT_DAILY_LIMIT,
    now,
  });
  try {
    const [gateway] = await Promise.all([gatewayOpen, ...chainOpens]);
    return { chains, gateway };
  } catch (err) {
    // Close what opened, once every opening has settled.
    const [gateway] = await Promise.allSettled([gatewayOpen, ...chainOpens]);
    if (gateway.status === 'fulfilled') await gateway.value.close();
    await Promise.all(Object.values(chains).map((c) => c.close()));
    if (dataDir !== undefined && isDatabaseLocked(err)) throw new DataDirInUseError(dataDir, { cause: err });
    throw err;
  }
}

/** Which networks to fork from where: `url` is asked its chain id, the per-network URLs are checked by the fork. */
async function forkTargets(fork: NodeForkOptions | undefined, genesis: Record<NetworkName, GenesisConfig>): Promise<Partial<Record<NetworkName, ForkOptions>>> {
  if (fork === undefined) return {};
  const { url, testnetUrl, mainnetUrl, ...common } = fork;
  const targets: Partial<Record<NetworkName, ForkOptions>> = {};
  if (testnetUrl !== undefined) targets.testnet = { ...common, url: testnetUrl };
  if (mainnetUrl !== undefined) targets.mainnet = { ...common, url: mainnetUrl };
  if (url !== undefined) {
    if (common.offline === true) throw new ForkStartError('--fork-offline with --fork-url: an offline fork cannot ask the remote its chain id; give --fork-url-testnet or --fork-url-mainnet');
    const chainId = await remoteChainId(url);
    const network = NETWORKS.find((n) => BigInt(genesis[n].chainId) === chainId);
    if (network === undefined) throw new ForkStartError(`--fork-url ${url}: the remote's chain id is ${chainId}, neither testnet's (${genesis.testnet.chainId}) nor mainnet's (${genesis.mainnet.chainId})`);
    if (targets[network] !== undefined) throw new ForkStartError(`--fork-url ${url} is a ${network} node, and --fork-url-${network} forks ${network} too: give one of them`);
    targets[network] = { ...common, url };
  }
  if (Object.keys(targets).length === 0 && common.offline === true) throw new ForkStartError('--fork-offline: give --fork-url-testnet or --fork-url-mainnet (the network to fork from the cache)');
  return targets;
}

/**
 * The fork part of the status page: what is forked, and how many requests the remote has had.
 * The remote's URL without its path, query and credentials: a gateway's API key is in its path.
 */
function forkStatus(chain: Chain): { url: string | undefined; chainId: number; block: number; remoteRequests: number } | undefined {
  const fork = chain.fork;
  return fork === undefined ? undefined : { url: fork.url && redactedUrl(fork.url), chainId: Number(fork.chainId), block: Number(fork.blockNumber), remoteRequests: fork.remoteRequests };
}


/** `publicUrl` without a trailing slash; an http(s) URL with no path, query or fragment. */
function checkPublicUrl(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`public URL ${value}: expected an absolute http(s) URL such as https://rpc.example.com`);
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') {
    throw new Error(`public URL ${value}: expected an http(s) URL without credentials, query or fragment`);
  }
  return parsed.href.replace(/\/+$/, '');
}

function checkStateOptions(options: NodeOptions): void {
  const interval = options.stateIntervalSeconds;
  if (interval !== undefined && options.dumpState === undefined) throw new Error('--state-interval needs --dump-state FILE: the file to write every interval');
  if (interval !== undefined && !(interval > 0)) throw new Error(`state interval ${interval}: expected a positive number of seconds`);
}

function checkMinerOption(options: NodeOptions): void {
  if (options.miner !== undefined && options.miner !== 'internal' && options.miner !== 'external') {
    throw new Error(`miner ${String(options.miner)}: expected "internal" or "external"`);
  }
  if (options.miner === 'external' && options.blockTime !== undefined) {
    throw new Error('--block-time and --miner external: an external miner decides when blocks come; give one of them');
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

