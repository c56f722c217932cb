/** The Express app for everything that is not an RPC call: the status page and the dashboard's API. */
import express, { type Express } from 'express';
import { createApiRouter } from '../gateway/api.js';
import { createPagesRouter } from '../gateway/pages.js';
import { createExplorerRouter, type ExplorerOptions } from './explorer.js';
import type { Gateway } from '../gateway/gateway.js';

export interface StatusInfo {
  clientVersion: string;
  networks: Array<{ network: string; chainId: number; blockNumber: () => bigint; fork?: () => unknown }>;
  /** Base of the key URLs in API answers: the listening address or --public-url (never the Host header). */
  publicUrl: () => string;
  /** The explorer's pages under /explorer (explorer.ts); absent, they are not served. */
  explorer?: ExplorerOptions;
}

export function createApp(status: StatusInfo, gateway: Gateway): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use('/api', createApiRouter(gateway, status.publicUrl));
  app.use('/dashboard', createPagesRouter(gateway));
  if (status.explorer !== undefined) app.use('/explorer', createExplorerRouter(status.explorer));
  app.get('/', (_req, res) => {
    res.json({
      name: 'rsk-devnode',
      version: status.clientVersion,
      rpc: 'POST /<API_KEY> (or /v2/<API_KEY>) with a JSON-RPC 2.0 body; the start-up banner prints the key-bearing URLs',
      dashboard: '/dashboard',
      ...(status.explorer !== undefined && !status.explorer.hosted ? { explorer: '/explorer (from this machine only)' } : {}),
      // A forked network adds its remote, fork block and the requests sent there (the hosted gateway allows 25,000 a day).
      networks: status.networks.map((n) => ({ network: n.network, chainId: n.chainId, blockNumber: Number(n.blockNumber()), fork: n.fork?.() })),
    });
  });
  app.use((_req, res) => {
    res.status(404).json({ error: 'Not found. JSON-RPC calls are POST /<API_KEY> (or /v2/<API_KEY>).' });
  });
  return app;
}
