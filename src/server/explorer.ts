/**
 * The explorer for demos under /explorer: one HTML shell per page kind, filled in by vanilla client
 * scripts (gateway/static/explorer-*.js: shared helpers, a script per view, explorer.js routing) that
 * read the chain through the node's own JSON-RPC at /explorer/rpc/<network>. That endpoint takes
 * only the read-only methods the pages use, so a page can never change the chain. Nothing is
 * loaded from elsewhere (the machine may be offline).
 *
 * Access: the operator's own machine needs no login, so the explorer answers only requests from a
 * loopback address, and never on a --hosted node (a hosted endpoint has no operator pages). The
 * home page's live updates come over the explorer's WebSocket (explorer-socket.ts), same rules.
 */
import { hexToBytes } from '@ethereumjs/util';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { MergedMiningView, NetworkName } from '../chain/index.js';
import type { HttpResult } from '../rpc/dispatcher.js';
import { codePath } from '../package-paths.js';
import { nativeAbiTable } from './native-abis.js';
import { PAGE_HEADERS } from '../gateway/pages.js';
import { explorerRefusal } from './explorer-socket.js';

/** src/gateway/static (or its copy in dist/): the dashboard's folder holds the explorer's files too. */
const STATIC_DIR = codePath('gateway', 'static');

/**
 * The explorer's scripts in the order they run (defer keeps document order): the shared helpers
 * first, then the views that register in them, then explorer.js, which routes to a view.
 */
const SCRIPTS = ['explorer-shared.js', 'explorer-home.js', 'explorer-block.js', 'explorer-tx.js', 'explorer-address.js', 'explorer.js'];

/** A page's batch of reads is a few kilobytes; 64 KiB leaves room without taking large bodies. */
const MAX_RPC_BODY = '64kb';

/** What the pages read; anything else is refused before the dispatcher, so the explorer stays read-only. */
const EXPLORER_METHODS = new Set([
  'eth_blockNumber',
  'eth_chainId',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getBalance',
  'eth_getTransactionCount',
  'eth_getCode',
  'debug_traceTransaction',
  'ots_searchTransactionsBefore',
  'ots_getContractCreator',
]);

const NETWORKS: readonly NetworkName[] = ['testnet', 'mainnet'];


export interface ExplorerOptions {
  /** The node's dispatcher for one network (node.ts `handle`). */
  handle: (network: NetworkName, body: string) => Promise<HttpResult>;
  hosted: boolean;
  /** A stored block's merged-mining fields decoded and checked (chain/merged-mining/decode.ts), or undefined. */
  mergedMining: (network: NetworkName, blockHash: Uint8Array) => Promise<MergedMiningView | undefined>;
}

export function createExplorerRouter(options: ExplorerOptions): Router {
  const router = express.Router({ strict: false });

  router.use((req: Request, res: Response, next: NextFunction) => {
    const refusal = explorerRefusal(options.hosted, req.socket.remoteAddress);
    if (refusal === undefined) return next();
    res.status(403).set(PAGE_HEADERS).type('text').send(refusal);
  });

  router.get([...SCRIPTS, 'explorer.css'].map((file) => `/${file}`), (req, res) => {
    res.set({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' }).sendFile(req.path.slice(1), { root: STATIC_DIR });
  });

  router.post('/rpc/:network', express.text({ type: () => true, limit: MAX_RPC_BODY }), (req, res) => {
    const network = req.params.network as NetworkName;
    if (!NETWORKS.includes(network)) {
      res.status(404).json(rpcError(null, -32602, `unknown network ${String(req.params.network).slice(0, 40)}: expected testnet or mainnet`));
      return;
    }
    const refusal = refuseMethods(typeof req.body === 'string' ? req.body : '');
    if (refusal !== undefined) {
      res.status(200).json(refusal);
      return;
    }
    options.handle(network, req.body as string).then(
      (result) => void res.status(result.status).type('json').send(result.body),
      () => void res.status(500).json(rpcError(null, -32603, 'internal error')),
    );
  });

  router.get('/api/native-abis', (_req, res) => {
    res.set('cache-control', 'no-store').json(nativeAbiTable());
  });

  router.get('/api/:network/merged-mining/:hash', (req, res) => {
    const network = req.params.network as NetworkName;
    const hash = req.params.hash;
    if (!NETWORKS.includes(network) || !/^0x[0-9a-fA-F]{64}$/.test(hash)) {
      res.status(400).json({ error: 'expected /explorer/api/<testnet|mainnet>/merged-mining/<block hash: 0x + 64 hex digits>' });
      return;
    }
    options.mergedMining(network, hexToBytes(hash as `0x${string}`)).then(
      (view) => void (view === undefined ? res.status(404).json({ error: `no block ${hash} stored on ${network}` }) : res.json(view)),
      () => void res.status(500).json({ error: 'internal error' }),
    );
  });

  router.get(['/', '/block/:id', '/tx/:hash', '/address/:address'], (_req, res) => {
    res.set(PAGE_HEADERS).type('html').send(shell());
  });
  router.use((_req: Request, res: Response) => {
    res.status(404).set(PAGE_HEADERS).type('html').send(shell());
  });
  // Body reading errors (too large, cut short) as JSON-RPC errors, never Express's HTML page.
  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { status, type } = err as { status?: number; type?: string };
    if (type === 'entity.too.large') res.status(413).json(rpcError(null, -32600, `request body too large: the explorer's endpoint takes at most ${MAX_RPC_BODY}`));
    else if (status !== undefined && status >= 400 && status < 500) res.status(status).json(rpcError(null, -32600, 'the request body could not be read'));
    else res.status(500).json(rpcError(null, -32603, 'internal error'));
  });
  return router;
}

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** A refusal when the body names a method outside EXPLORER_METHODS; undefined lets the dispatcher judge the rest. */
function refuseMethods(body: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined; // the dispatcher answers -32700 as for any client
  }
  const calls = Array.isArray(parsed) ? parsed : [parsed];
  for (const call of calls) {
    const method = (call as { method?: unknown } | null)?.method;
    if (typeof method === 'string' && !EXPLORER_METHODS.has(method)) {
      const id = (call as { id?: unknown }).id ?? null;
      return rpcError(id, -32601, `the explorer's endpoint is read-only and does not offer ${method.slice(0, 80)}`);
    }
  }
  return undefined;
}

/** The one page shell; explorer.js reads the path and fills <main> with its view. */
function shell(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Explorer · rsk-devnode</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/style.css">
<link rel="stylesheet" href="/explorer/explorer.css">
${SCRIPTS.map((file) => `<script src="/explorer/${file}" defer></script>`).join('\n')}
</head>
<body data-page="explorer">
<header class="top">
  <a class="brand" href="/explorer"><span class="logo" aria-hidden="true"></span>rsk-devnode explorer</a>
  <nav class="explorer-nav">
    <form id="search" role="search">
      <input id="search-input" name="q" type="search" spellcheck="false" autocomplete="off" maxlength="80"
        placeholder="Block number, hash or address" aria-label="Block number, transaction or block hash, or address">
      <button type="submit" class="primary">Search</button>
    </form>
    <label class="network-pick">Network
      <select id="network">
        <option value="testnet">Testnet (31)</option>
        <option value="mainnet">Mainnet (30)</option>
      </select>
    </label>
  </nav>
</header>
<main id="explorer-main">
  <p class="muted">Loading…</p>
</main>
<footer class="muted">Read-only views of this node's chains, served on the node's own machine.</footer>
</body>
</html>
`;
}
