#!/usr/bin/env node
/** `rsk-devnode [flags]`: starts both networks and serves JSON-RPC over HTTP. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { limitHeapGrowth } from './heap-growth.js';
import { saveCodeCacheSoon } from './code-cache.js';
import { collectWhenIdle } from './idle-gc.js';
import { limitInlining } from './inlining-budget.js';
import { capYoungGeneration } from './young-generation.js';
// Types only: the node's modules load after the flags are read, so --help and a bad flag answer at once.
import type { DevNode, NodeOptions } from './node.js';
import type { NetworkName } from './chain/index.js';
import type { LogLevel } from './logger.js';

const HELP = `rsk-devnode: a local Rootstock (RSK) node

Usage: rsk-devnode [flags]        (or: npm start -- [flags])

  --port PORT              HTTP port (default 8545)
  --host HOST              interface to listen on (default 127.0.0.1)
  --data-dir DIR           where chains and keys are kept (default chain-data)
  --in-memory              keep nothing on disk
  --api-key KEY[:NETWORK]  an operator key for testnet (default) or mainnet; repeatable.
                           Without any, one key per network is made and kept in the data dir
                           (with --in-memory, new ones every start: give keys to keep URLs stable).
  --min-gas-price WEI      minimum gas price: genesis value of a new chain, else the miner's
                           target, approached by at most 1% a block (default: genesis, 60000000)
  --block-gas-limit GAS    block gas limit: genesis value of a new chain, else the miner's target
                           (default: genesis, 6800000)
  --skip-remasc            hide the REMASC transaction from RPC results (rskj rpc.skipRemasc)
  --block-time SECONDS     interval mining: a block every SECONDS instead of one per transaction
  --no-mining              manual mining: transactions wait in the pool until evm_mine
  --no-auto-pegin          the node's federation does not register confirmed peg-ins (BTC sent to
                           the federation address) itself: call registerBtcTransaction yourself
  --no-auto-pegout         the node's federation does not batch, sign and release peg-outs itself:
                           call updateCollections and addSignature with the federators' keys
  --miner internal|external  who mines (default internal: the node seals its own blocks).
                           external: only merged miners make blocks (mnr_getWork, then
                           mnr_submitBitcoinBlock*); evm_mine still mines one by hand
  --profile hardhat        for Hardhat projects: answer as HardhatNetwork, hide REMASC, date a new
                           chain's genesis at start-up, answer a send whose transaction reverts with
                           the revert, and serve testnet without a key (see --keyless-network)
  --keyless-network testnet|mainnet|none
                           serve one network at http://HOST:PORT/ without a key, for tools that
                           default to http://localhost:8545 (cast, forge, Hardhat's localhost);
                           default testnet under --profile hardhat, else none; refused with --hosted
  --keyless-beyond-loopback  serve the keyless network when --host is not a loopback address too
                           (anyone who reaches the node then has the operator's rights on it)
  --logs-max N             eth_getLogs: most logs over a range longer than --logs-max-blocks (10000)
  --logs-max-blocks N      eth_getLogs: longest block range with no cap on logs (2000)
  --filter-timeout SECONDS remove a filter not polled for this long (300)
  --daily-limit N          requests per dashboard user per UTC day (25000); operator keys are not counted
  --hosted                 dashboard keys behave as on the hosted endpoint: no evm_*/hardhat_*/
                           anvil_*/sco_* either (they never get the node's keys: eth_accounts is [],
                           no eth_sendTransaction, eth_sign, personal_*). Without it a node listening
                           beyond 127.0.0.1 warns at start-up
  --log-level LEVEL        fatal|error|warn|info|debug|trace|silent (default info: a line per
                           mined block and per transaction; debug adds each JSON-RPC method called)
  --quiet                  no block and transaction lines: the same as --log-level warn
  --silent-console         do not print contracts' console.log lines (printed by default under
                           the transaction hash, eth_call, or a failed eth_estimateGas)
  --http-header-timeout S  seconds a client has to send its request line and headers (10)
  --http-request-timeout S seconds a client has to send a whole request, body included (30)
  --http-idle-timeout S    seconds a keep-alive connection may sit idle between requests (5)
  --max-connections N      open HTTP and WebSocket connections at once; more are closed (512)
  --max-connections-per-address N  of those, how many one client address may hold (a quarter of
                           --max-connections; 127.0.0.1 and ::1 may use them all)
  --call-gas-cap GAS       most gas an eth_call may use; eth_estimateGas stays under it too (10000000)
  --execution-timeout S    seconds one request's eth_call, eth_estimateGas and traces may execute; 0: no limit (5)
  --operator-execution-timeout S  the same for requests with the operator's own keys (--execution-timeout)
  --max-filters N          filters installed at once per API key and network (1000)
  --max-subscriptions N    eth_subscribe subscriptions per WebSocket connection (1000)
  --filter-max-addresses N addresses in one log filter (1000)
  --filter-max-topics N    topics per position in one log filter (1000)
  --ws-max-buffered BYTES  unread bytes after which a WebSocket client is dropped (16777216)
  --ws-ping-interval S     seconds between WebSocket pings; a client that missed one is dropped (30)
  --load-state FILE        load a state file at start (gzip or plain JSON): a dump of this node
                           replaces the chains it holds; an anvil file's accounts are merged in
  --dump-state FILE        write both networks' chains (blocks, receipts, logs, state) to FILE,
                           gzip JSON, when the node closes
  --state-interval S       with --dump-state: also write it every S seconds
  --public-url URL         base of the key URLs the dashboard shows (e.g. behind a proxy);
                           default the address the node listens on
  --fork-url URL           fork the live RSK node at URL: the network whose chain id it reports
                           (31 testnet, 30 mainnet) continues from its fork block, reading the
                           remote's accounts, code, storage and older blocks on demand
  --fork-url-testnet URL   fork testnet from URL (its chain id must be 31)
  --fork-url-mainnet URL   fork mainnet from URL (its chain id must be 30)
  --fork-block N           the block to fork at (default: the remote's latest at start)
  --fork-offline           read the remote from the fork cache only; an uncached read fails
  --fork-cache-dir DIR     keep the fork cache in DIR (default: the data dir; memory with --in-memory)
  --fork-retries N         retries of a rate-limited or failed remote request (5)
  --fork-retry-backoff MS  first wait before a retry, doubling each time; Retry-After wins (500)
  --help                   show this help
`;

function bigintFlag(name: string, value: string | undefined): bigint | undefined {
  if (value === undefined) return undefined;
  if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(value)) throw new Error(`--${name} ${value}: expected a non-negative integer`);
  return BigInt(value);
}

function positiveNumberFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n > 0)) throw new Error(`--${name} ${value}: expected a positive number`);
  return n;
}

function wholeNumberFlag(name: string, value: string | undefined): number | undefined {
  const n = positiveNumberFlag(name, value);
  if (n !== undefined && !Number.isInteger(n)) throw new Error(`--${name} ${value}: expected a whole number`);
  return n;
}

function mapDefined<T, U>(value: T | undefined, f: (v: T) => U): U | undefined {
  return value === undefined ? undefined : f(value);
}

function logLevelFlag(level: string | undefined, quiet: boolean, levels: readonly LogLevel[]): LogLevel {
  if (quiet && level !== undefined) throw new Error('--quiet and --log-level: give one of them');
  if (quiet) return 'warn';
  if (level === undefined) return 'info';
  if (!(levels as readonly string[]).includes(level)) throw new Error(`--log-level ${level}: expected one of ${levels.join('|')}`);
  return level as LogLevel;
}

function minerFlag(value: string | undefined): 'internal' | 'external' | undefined {
  if (value === undefined || value === 'internal' || value === 'external') return value;
  throw new Error(`--miner ${value}: expected "internal" or "external"`);
}

function profileFlag(value: string | undefined): 'hardhat' | undefined {
  if (value === undefined || value === 'hardhat') return value;
  throw new Error(`--profile ${value}: the only profile is "hardhat"`);
}

/** parseArgs' own words for a bad flag, with the way to the list of flags. */
function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>(config);
  } catch (err) {
    throw new Error(`${err instanceof Error ? err.message : String(err)}\nSee rsk-devnode --help for the flags.`);
  }
}

/** A time limit in seconds, 0 for none, as milliseconds. */
function timeoutFlag(name: string, value: string | undefined): number | undefined {
  return mapDefined(value, (v) => {
    const seconds = Number(v);
    if (v.trim() === '' || !(seconds >= 0)) throw new Error(`--${name} ${v}: expected seconds, 0 for no limit`);
    return seconds * 1000;
  });
}

/** The --fork-* flags; undefined when nothing is forked. */
function forkFlags(values: Record<string, string | boolean | string[] | undefined>): NodeOptions['fork'] {
  const text = (name: string) => values[name] as string | undefined;
  const urls = { url: text('fork-url'), testnetUrl: text('fork-url-testnet'), mainnetUrl: text('fork-url-mainnet') };
  const offline = values['fork-offline'] === true;
  const rest = ['fork-block', 'fork-cache-dir', 'fork-retries', 'fork-retry-backoff'].filter((name) => values[name] !== undefined);
  if (Object.values(urls).every((u) => u === undefined)) {
    if (offline || rest.length > 0) throw new Error(`--${offline ? 'fork-offline' : rest[0]} without a fork: give --fork-url, --fork-url-testnet or --fork-url-mainnet`);
    return undefined;
  }
  const retries = text('fork-retries');
  if (retries !== undefined && !/^\d+$/.test(retries)) throw new Error(`--fork-retries ${retries}: expected a whole number`);
  return {
    ...urls,
    block: bigintFlag('fork-block', text('fork-block')),
    offline,
    cacheDir: text('fork-cache-dir'),
    retries: mapDefined(retries, Number),
    retryBackoffMs: positiveNumberFlag('fork-retry-backoff', text('fork-retry-backoff')),
  };
}

async function main(): Promise<void> {
  const { values } = parseFlags({
    options: {
      port: { type: 'string', default: '8545' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string', default: 'chain-data' },
      'in-memory': { type: 'boolean', default: false },
      'api-key': { type: 'string', multiple: true },
      'min-gas-price': { type: 'string' },
      'block-gas-limit': { type: 'string' },
      'skip-remasc': { type: 'boolean' },
      'block-time': { type: 'string' },
      'no-mining': { type: 'boolean', default: false },
      'no-auto-pegin': { type: 'boolean', default: false },
      'no-auto-pegout': { type: 'boolean', default: false },
      miner: { type: 'string' },
      profile: { type: 'string' },
      'keyless-network': { type: 'string' },
      'keyless-beyond-loopback': { type: 'boolean', default: false },
      'logs-max': { type: 'string' },
      'logs-max-blocks': { type: 'string' },
      'filter-timeout': { type: 'string' },
      'daily-limit': { type: 'string' },
      hosted: { type: 'boolean', default: false },
      'log-level': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      'silent-console': { type: 'boolean', default: false },
      'http-header-timeout': { type: 'string' },
      'http-request-timeout': { type: 'string' },
      'http-idle-timeout': { type: 'string' },
      'max-connections': { type: 'string' },
      'max-connections-per-address': { type: 'string' },
      'call-gas-cap': { type: 'string' },
      'execution-timeout': { type: 'string' },
      'operator-execution-timeout': { type: 'string' },
      'max-filters': { type: 'string' },
      'max-subscriptions': { type: 'string' },
      'filter-max-addresses': { type: 'string' },
      'filter-max-topics': { type: 'string' },
      'ws-max-buffered': { type: 'string' },
      'ws-ping-interval': { type: 'string' },
      'public-url': { type: 'string' },
      'load-state': { type: 'string' },
      'dump-state': { type: 'string' },
      'state-interval': { type: 'string' },
      'fork-url': { type: 'string' },
      'fork-url-testnet': { type: 'string' },
      'fork-url-mainnet': { type: 'string' },
      'fork-block': { type: 'string' },
      'fork-offline': { type: 'boolean', default: false },
      'fork-cache-dir': { type: 'string' },
      'fork-retries': { type: 'string' },
      'fork-retry-backoff': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  limitHeapGrowth();
  capYoungGeneration();
  limitInlining();
  const [{ createNode, redactedUrl }, { parseApiKeyFlag }, { LOG_LEVELS }, keyless] = await Promise.all([
    import('./node.js'),
    import('./node-keys.js'),
    import('./logger.js'),
    import('./keyless.js'),
  ]);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port ${values.port}: expected 0-65535`);
  const options: NodeOptions = {
    dataDir: values['data-dir'],
    inMemory: values['in-memory'],
    apiKeys: (values['api-key'] ?? []).map(parseApiKeyFlag),
    minGasPrice: bigintFlag('min-gas-price', values['min-gas-price']),
    blockGasLimit: bigintFlag('block-gas-limit', values['block-gas-limit']),
    skipRemasc: values['skip-remasc'],
    blockTime: positiveNumberFlag('block-time', values['block-time']),
    mining: !values['no-mining'],
    autoPegin: !values['no-auto-pegin'],
    autoPegout: !values['no-auto-pegout'],
    miner: minerFlag(values.miner),
    profile: profileFlag(values.profile),
    keylessNetwork: keyless.parseKeylessFlag(values['keyless-network']),
    keylessBeyondLoopback: values['keyless-beyond-loopback'],
    maxLogs: positiveNumberFlag('logs-max', values['logs-max']),
    maxLogBlockRange: positiveNumberFlag('logs-max-blocks', values['logs-max-blocks']),
    dailyLimit: positiveNumberFlag('daily-limit', values['daily-limit']),
    hosted: values.hosted,
    filterTimeoutMs: mapDefined(positiveNumberFlag('filter-timeout', values['filter-timeout']), (s) => s * 1000),
    logLevel: logLevelFlag(values['log-level'], values.quiet, LOG_LEVELS),
    silentConsole: values['silent-console'],
    http: {
      headerTimeoutMs: mapDefined(positiveNumberFlag('http-header-timeout', values['http-header-timeout']), (s) => s * 1000),
      requestTimeoutMs: mapDefined(positiveNumberFlag('http-request-timeout', values['http-request-timeout']), (s) => s * 1000),
      idleTimeoutMs: mapDefined(positiveNumberFlag('http-idle-timeout', values['http-idle-timeout']), (s) => s * 1000),
      maxConnections: mapDefined(positiveNumberFlag('max-connections', values['max-connections']), (n) => {
        if (!Number.isInteger(n)) throw new Error(`--max-connections ${n}: expected a whole number`);
        return n;
      }),
      maxConnectionsPerAddress: wholeNumberFlag('max-connections-per-address', values['max-connections-per-address']),
    },
    limits: {
      callGasCap: bigintFlag('call-gas-cap', values['call-gas-cap']),
      executionTimeoutMs: timeoutFlag('execution-timeout', values['execution-timeout']),
      operatorExecutionTimeoutMs: timeoutFlag('operator-execution-timeout', values['operator-execution-timeout']),
      maxFilters: wholeNumberFlag('max-filters', values['max-filters']),
      maxSubscriptions: wholeNumberFlag('max-subscriptions', values['max-subscriptions']),
      maxFilterAddresses: wholeNumberFlag('filter-max-addresses', values['filter-max-addresses']),
      maxFilterTopics: wholeNumberFlag('filter-max-topics', values['filter-max-topics']),
      webSocket: {
        maxBufferedBytes: wholeNumberFlag('ws-max-buffered', values['ws-max-buffered']),
        pingIntervalMs: mapDefined(positiveNumberFlag('ws-ping-interval', values['ws-ping-interval']), (s) => s * 1000),
      },
    },
    publicUrl: values['public-url'],
    loadState: values['load-state'],
    dumpState: values['dump-state'],
    stateIntervalSeconds: positiveNumberFlag('state-interval', values['state-interval']),
    fork: forkFlags(values),
  };
  // Before any database opens: a keyless network the host cannot have is refused at once.
  keyless.checkKeylessOptions(options);
  keyless.keylessNetworkFor(options, values.host);
  // Signal handlers first: a supervisor may stop the node the moment it sees the banner.
  let node: DevNode | undefined;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: closing databases\n`);
    (node?.close() ?? Promise.resolve()).then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`error while closing: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  const started = await createNode(options);
  collectWhenIdle();
  node = started;
  const server = await started.server(port, values.host);
  if (closing) return;
  const urlLine = (network: NetworkName, path: string, note = '') =>
    `  ${network.padEnd(8)} chain ${started.chains[network].chainId}  ${server.url}/${path}${note}`;
  // The remote's path is left out of a fork's note: a gateway's API key is there.
  const forkNote = (network: NetworkName) => {
    const fork = started.chains[network].fork;
    return fork === undefined ? '' : `  (fork of ${fork.url === undefined ? 'the fork cache' : redactedUrl(fork.url)} at block ${fork.blockNumber})`;
  };
  const lines = started.apiKeys.map((k) => urlLine(k.network, k.key, forkNote(k.network)));
  if (server.keylessNetwork !== undefined) lines.push(urlLine(server.keylessNetwork, '', '  (no key: for local tools; --keyless-network)'));
  const storage = options.inMemory ? 'in memory' : `data in ${options.dataDir}`;
  const fresh = options.inMemory && options.apiKeys!.length === 0 ? '; new keys on every in-memory start: --api-key KEY[:NETWORK] keeps them' : '';
  process.stdout.write(
    `rsk-devnode listening on ${server.url} (${storage}${options.profile === undefined ? '' : `, profile ${options.profile}`})\n` +
      `JSON-RPC URLs (keep them private; the key is the credential${fresh}):\n${lines.join('\n')}\n`,
  );
  saveCodeCacheSoon();
}

main().catch((err: unknown) => {
  process.stderr.write(`rsk-devnode: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
