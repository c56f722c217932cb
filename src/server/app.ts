/** The Express app for everything that is not an RPC POST: for now a JSON status page. */
import express, { type Express } from 'express';

export interface StatusInfo {
  clientVersion: string;
  networks: Array<{ network: string; chainId: number; blockNumber: () => bigint }>;
}

export function createApp(status: StatusInfo): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/', (_req, res) => {
    res.json({
      name: 'rsk-devnode',
      version: status.clientVersion,
      rpc: 'POST /<API_KEY> with a JSON-RPC 2.0 body; the start-up banner prints the key-bearing URLs',
      networks: status.networks.map((n) => ({ network: n.network, chainId: n.chainId, blockNumber: Number(n.blockNumber()) })),
    });
  });
  app.use((_req, res) => {
    res.status(404).json({ error: 'Not found. JSON-RPC calls are POST /<API_KEY>.' });
  });
  return app;
}
