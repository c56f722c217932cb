/**
 * A JSON-RPC proxy in front of a test node (node:http on 127.0.0.1), for fork tests: it keeps every
 * request body it forwards and can change a call's answer (`rewrite`), standing in for a remote
 * whose state a devnode cannot reach (e.g. a Bridge that processed BTC blocks).
 */
import { createServer, type Server } from 'node:http';

interface JsonRpcRequest {
  id?: unknown;
  method?: string;
  params?: unknown[];
}

interface JsonRpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: unknown;
}

export interface RpcProxy {
  url: string;
  /** Every JSON-RPC call forwarded (a batch's calls one by one). */
  calls: JsonRpcRequest[];
  /** HTTP requests received (a batch is one). */
  requests: number;
  /** Changes an answer before it goes back: return a new result, or undefined to keep the remote's. */
  rewrite?: (call: JsonRpcRequest, result: unknown) => unknown;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: '', calls: [], requests: 0, close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    proxy.requests++;
    const body = JSON.parse(text) as JsonRpcRequest | JsonRpcRequest[];
    const requests = Array.isArray(body) ? body : [body];
    proxy.calls.push(...requests);
    const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    const parsed = (await answer.json()) as JsonRpcAnswer | JsonRpcAnswer[];
    const answers = Array.isArray(parsed) ? parsed : [parsed];
    for (const one of answers) {
      const request = requests.find((r) => r.id === one.id);
      if (request === undefined || !('result' in one) || proxy.rewrite === undefined) continue;
      const changed = proxy.rewrite(request, one.result);
      if (changed !== undefined) one.result = changed;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}
