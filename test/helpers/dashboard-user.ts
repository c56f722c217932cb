/** A signed-in user of the dashboard's JSON API (/api), for tests that need dashboard keys. */
export interface KeyView {
  id: string;
  key: string;
  network: 'testnet' | 'mainnet';
  url: string;
  v2Url: string;
  allowlist: { origins: string[]; ipRanges: string[]; contracts: string[]; methods: string[] };
  jwtKeys: Array<{ id: string; name: string; algorithm: string; publicKey: unknown; createdAt: string }>;
}

const PASSWORD = 'correct horse battery';

export class DashboardUser {
  private cookie = '';

  private constructor(readonly baseUrl: string) {}

  /** Signs up and logs in a fresh account. */
  static async create(baseUrl: string, email: string): Promise<DashboardUser> {
    await new DashboardUser(baseUrl).call('POST', '/signup', { email, password: PASSWORD });
    return DashboardUser.login(baseUrl, email);
  }

  /** Logs in an account made by create (on this node, or before its restart). */
  static async login(baseUrl: string, email: string): Promise<DashboardUser> {
    const user = new DashboardUser(baseUrl);
    const password = PASSWORD;
    const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    user.cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    return user;
  }

  /** One API call: status and parsed body. */
  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', cookie: this.cookie },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  /** A call that must answer `status`; its body. */
  async expect(status: number, method: string, path: string, body?: unknown): Promise<any> {
    const res = await this.call(method, path, body);
    if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}, expected ${status}`);
    return res.body;
  }

  createKey(network: 'testnet' | 'mainnet', name = `key-${network}`): Promise<KeyView> {
    return this.expect(201, 'POST', '/keys', { name, network });
  }

  setAllowlist(key: KeyView, lists: Partial<KeyView['allowlist']>): Promise<KeyView> {
    return this.expect(200, 'PUT', `/keys/${key.id}/allowlist`, lists);
  }

  addJwtKey(key: KeyView, fields: { name: string; algorithm: string; publicKey: unknown }): Promise<KeyView> {
    return this.expect(201, 'POST', `/keys/${key.id}/jwt-keys`, fields);
  }
}
