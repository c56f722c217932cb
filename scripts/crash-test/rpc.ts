/** A minimal JSON-RPC and dashboard client for the reliability scripts (plain fetch, batches). */

export interface RpcError {
  code: number;
  message: string;
}

/** JSON-RPC batches the scripts send: under rskj's batch limit of 50. */
export const BATCH_SIZE = 50;

export class RpcFailure extends Error {
  constructor(
    readonly method: string,
    readonly error: RpcError,
  ) {
    super(`${method}: ${error.code} ${error.message}`);
  }
}

let nextId = 1;

async function post(url: string, body: unknown): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return response.json();
}

/** One call; throws RpcFailure on a JSON-RPC error, and whatever fetch throws when the node is gone. */
export async function call(url: string, method: string, params: unknown[] = []): Promise<any> {
  const answer = await post(url, { jsonrpc: '2.0', id: nextId++, method, params });
  if (answer.error !== undefined) throw new RpcFailure(method, answer.error);
  return answer.result;
}

/** Many calls of one method, sent in batches of BATCH_SIZE; results in order. */
export async function callMany(url: string, method: string, paramsList: unknown[][]): Promise<any[]> {
  const results: any[] = [];
  for (let start = 0; start < paramsList.length; start += BATCH_SIZE) {
    const chunk = paramsList.slice(start, start + BATCH_SIZE).map((params) => ({ jsonrpc: '2.0', id: nextId++, method, params }));
    const answers = (await post(url, chunk)) as Array<{ id: number; result?: unknown; error?: RpcError }>;
    if (!Array.isArray(answers)) throw new Error(`${method} batch: answer is not an array: ${JSON.stringify(answers).slice(0, 200)}`);
    const byId = new Map(answers.map((a) => [a.id, a]));
    for (const request of chunk) {
      const answer = byId.get(request.id);
      if (answer === undefined) throw new Error(`${method} batch: no answer for id ${request.id}`);
      if (answer.error !== undefined) throw new RpcFailure(method, answer.error);
      results.push(answer.result);
    }
  }
  return results;
}

/** The dashboard's JSON API (src/gateway/api.ts): a session cookie once logged in. */
export class DashboardClient {
  private cookie: string | undefined;

  constructor(private readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.cookie !== undefined) headers.cookie = this.cookie;
    const response = await fetch(`${this.baseUrl}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie !== null) this.cookie = setCookie.split(';')[0];
    return { status: response.status, body: await response.json() };
  }

  async login(email: string, password: string): Promise<boolean> {
    this.cookie = undefined;
    return (await this.request('POST', '/login', { email, password })).status === 200;
  }
}
