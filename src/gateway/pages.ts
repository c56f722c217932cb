/**
 * The dashboard's pages under /dashboard: small HTML shells filled in by vanilla client scripts
 * (static/dashboard-shared.js, app.js, and key-page.js on a key's page) that talk to the JSON API
 * under /api. Every value that comes from the API is put into the page with textContent, never
 * parsed as HTML. Pages that need an account redirect to the login page when there is no live
 * session, so a signed-out visit makes no failing request.
 */
import express, { type Request, type Response, type Router } from 'express';
import { USAGE_DAYS, sessionToken } from './api.js';
import { MAX_ALLOWLIST_ENTRIES } from './allowlist.js';
import { type Gateway, MAX_KEYS_PER_USER } from './gateway.js';
import { MAX_JWT_KEYS, MAX_JWT_LIFETIME_S } from './jwt-keys.js';
import { MAX_METHODS_PER_DAY, OTHER_METHODS } from './key-usage.js';
import { codePath } from '../package-paths.js';

/** src/gateway/static, or its copy in dist/ (scripts/copy-static.mjs), which the bundle in dist/bin/ uses too. */
const STATIC_DIR = codePath('gateway', 'static');

/** The scripts every page loads, in the order they run (defer keeps document order): the shared helpers first. */
const SCRIPTS = ['dashboard-shared.js', 'app.js'];

/** A page's own script, loaded after SCRIPTS. */
const PAGE_SCRIPTS: Record<string, string> = { key: 'key-page.js' };

/** Everything the pages load comes from this origin; nothing inline, nothing external. */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function createPagesRouter(gateway: Gateway): Router {
  const router = express.Router({ strict: false });
  const signedIn = (req: Request) => gateway.sessionUser(sessionToken(req)) !== undefined;

  /** Serves a page, or redirects: account pages need a session, the entry pages do not want one. */
  const page = (render: () => string, needsSession: boolean) => (req: Request, res: Response) => {
    if (signedIn(req) !== needsSession) {
      res.redirect(303, needsSession ? '/dashboard/login' : '/dashboard/keys');
      return;
    }
    res.set(PAGE_HEADERS).type('html').send(render());
  };

  router.use(express.static(STATIC_DIR, { index: false, redirect: false, maxAge: 0 }));
  router.get('/', (req, res) => res.redirect(303, signedIn(req) ? '/dashboard/keys' : '/dashboard/login'));
  router.get('/signup', page(signupPage, false));
  router.get('/login', page(loginPage, false));
  router.get('/keys', page(keysPage, true));
  router.get('/keys/:id', page(keyPage, true));
  router.use((_req: Request, res: Response) => {
    res.status(404).set(PAGE_HEADERS).type('html').send(layout('Not found', 'not-found', `
      <section class="card narrow">
        <h1>Page not found</h1>
        <p>There is no dashboard page here. <a href="/dashboard">Go to the dashboard</a>.</p>
      </section>`, false));
  });
  return router;
}


function layout(title: string, pageName: string, main: string, account: boolean): string {
  const nav = account
    ? `<nav class="account"><span id="user-email" class="muted"></span><button type="button" id="logout" class="link">Log out</button></nav>`
    : '';
  const own = PAGE_SCRIPTS[pageName];
  const scripts = [...SCRIPTS, ...(own === undefined ? [] : [own])]
    .map((file) => `<script src="/dashboard/${file}" defer></script>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · rsk-devnode</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/style.css">
${scripts}
</head>
<body data-page="${pageName}" data-max-keys="${MAX_KEYS_PER_USER}">
<header class="top">
  <a class="brand" href="/dashboard"><span class="logo" aria-hidden="true"></span>rsk-devnode</a>
  ${nav}
</header>
<main>${main}
</main>
<footer class="muted">A local emulation of the hosted Rootstock RPC gateway. Keys made here work only on this node.</footer>
</body>
</html>
`;
}

function signupPage(): string {
  return layout('Sign up', 'signup', `
    <section class="card narrow">
      <h1>Create an account</h1>
      <p class="muted">An account holds up to ${MAX_KEYS_PER_USER} API keys for the Rootstock testnet and mainnet endpoints of this node.</p>
      <form id="auth-form" novalidate>
        <label>Email <input type="email" name="email" autocomplete="username" required maxlength="200"></label>
        <label>Password <input type="password" name="password" autocomplete="new-password" required minlength="8" maxlength="200">
          <small class="muted">At least 8 characters.</small></label>
        <p class="error" role="alert" hidden></p>
        <button type="submit" class="primary">Sign up</button>
      </form>
      <p>Already have an account? <a href="/dashboard/login">Log in</a></p>
    </section>`, false);
}

function loginPage(): string {
  return layout('Log in', 'login', `
    <section class="card narrow">
      <h1>Log in</h1>
      <p class="notice" role="status" hidden></p>
      <form id="auth-form" novalidate>
        <label>Email <input type="email" name="email" autocomplete="username" required maxlength="200"></label>
        <label>Password <input type="password" name="password" autocomplete="current-password" required maxlength="200"></label>
        <p class="error" role="alert" hidden></p>
        <button type="submit" class="primary">Log in</button>
      </form>
      <p>No account yet? <a href="/dashboard/signup">Sign up</a></p>
    </section>`, false);
}

function keysPage(): string {
  return layout('API keys', 'keys', `
    <section class="card">
      <div class="card-head">
        <h1>API keys</h1>
        <span id="key-count" class="muted"></span>
      </div>
      <p class="error" id="list-error" role="alert" hidden></p>
      <table id="keys-table">
        <thead><tr><th scope="col">Name</th><th scope="col">Network</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody id="keys-body"></tbody>
      </table>
      <p id="no-keys" class="muted" hidden>No keys yet: create one below.</p>
    </section>
    <section class="card">
      <h2>New key</h2>
      <form id="new-key-form" class="grid-form">
        <label>Name <input name="name" required maxlength="100" placeholder="my-dapp"></label>
        <label>Network
          <select name="network" required>
            <option value="" selected disabled>Choose a network</option>
            <option value="testnet">Testnet (chain id 31)</option>
            <option value="mainnet">Mainnet (chain id 30)</option>
          </select>
        </label>
        <label class="wide">Description <span class="muted">(optional)</span>
          <textarea name="description" rows="2" maxlength="500"></textarea></label>
        <p class="error wide" id="new-key-error" role="alert" hidden></p>
        <p class="notice wide" id="new-key-notice" role="status" hidden></p>
        <div class="wide"><button type="submit" class="primary">Create key</button></div>
      </form>
    </section>
    <section class="card" id="usage">
      <h2>Usage</h2>
      <p class="error" id="usage-error" role="alert" hidden></p>
      <div class="usage-today">
        <label for="usage-meter">Today (UTC)</label>
        <meter id="usage-meter" min="0" max="1" value="0"></meter>
        <p id="usage-text"><span id="usage-used">0</span> of <span id="usage-limit">0</span> requests used today, <span id="usage-remaining">0</span> left. The count resets at 00:00 UTC.</p>
      </div>
      <h3>Requests per day, last 30 days</h3>
      <figure id="usage-chart" class="chart"></figure>
    </section>`, true);
}

function keyPage(): string {
  return layout('API key', 'key', `
    <p><a href="/dashboard/keys">&larr; All keys</a></p>
    <section class="card" id="key-detail" hidden>
      <div class="card-head">
        <h1 id="key-name"></h1>
        <span id="key-status" class="badge"></span>
      </div>
      <p id="key-description" class="muted"></p>
      <dl class="facts">
        <dt>Network</dt><dd id="key-network"></dd>
        <dt>Chain id</dt><dd id="key-chain-id"></dd>
        <dt>Created</dt><dd id="key-created"></dd>
        <dt id="key-revoked-label" hidden>Revoked</dt><dd id="key-revoked" hidden></dd>
      </dl>
      <label for="key-url">Endpoint URL <span class="muted">(JSON-RPC: POST to this address)</span></label>
      <div class="copy-row">
        <input id="key-url" type="text" readonly spellcheck="false">
        <button type="button" id="copy-url" class="primary">Copy</button>
      </div>
      <label for="key-v2-url">Alternative provider URL <span class="muted">(the same key at /v2/, HTTP and WebSocket)</span></label>
      <div class="copy-row">
        <input id="key-v2-url" type="text" readonly spellcheck="false">
        <button type="button" id="copy-v2-url" class="primary" aria-label="Copy the /v2 URL">Copy</button>
      </div>
      <p id="copy-status" class="muted" role="status"></p>
      <p class="error" id="key-error" role="alert" hidden></p>
      <div class="danger-zone">
        <p class="muted" id="revoke-hint">Revoking is permanent: requests with this key are refused from then on.</p>
        <button type="button" id="revoke-key" class="danger">Revoke key</button>
      </div>
    </section>
    <section class="card" id="recipes-card" hidden>
      <h2>Use this key</h2>
      <p class="muted">Ready-to-copy setups with this key's URL and chain id. The node holds no private keys for dashboard keys: sign in your app or tool.</p>
      <label for="recipe-address">Address in the recipes</label>
      <select id="recipe-address">
        <option value="url">/&lt;KEY&gt; (the gateway's address)</option>
        <option value="v2">/v2/&lt;KEY&gt; (the alternative provider's address)</option>
      </select>
      <div id="recipes"></div>
      <p id="recipe-status" class="muted" role="status"></p>
    </section>
    <section class="card" id="key-usage-card" hidden>
      <h2>Usage of this key</h2>
      <p class="error" id="key-usage-error" role="alert" hidden></p>
      <h3>Requests per day, last ${USAGE_DAYS} days</h3>
      <figure id="key-usage-chart" class="chart"></figure>
      <h3>By method</h3>
      <p class="muted small">Each call of a batch counts. A day keeps ${MAX_METHODS_PER_DAY} method names; calls of further methods, and bodies that are not JSON-RPC calls, count as "${OTHER_METHODS}".</p>
      <table id="methods-table" hidden>
        <thead><tr><th scope="col">Method</th><th scope="col" class="num">Today</th><th scope="col" class="num">${USAGE_DAYS} days</th></tr></thead>
        <tbody id="methods-body"></tbody>
      </table>
      <p id="no-methods" class="muted" hidden>No requests with this key in the last ${USAGE_DAYS} days.</p>
    </section>
    <section class="card" id="allowlist-card" hidden>
      <h2>Allow lists</h2>
      <p class="muted">Empty lists allow everything. With entries, a request must match every non-empty list (entries of one list are alternatives); others get HTTP 403. One entry a line, at most ${MAX_ALLOWLIST_ENTRIES} a list.</p>
      <form id="allowlist-form" class="grid-form">
        <label>Allowed origins <span class="muted">(https://app.example.com, https://*.example.com)</span>
          <textarea name="origins" rows="3" spellcheck="false"></textarea></label>
        <label>Allowed IP ranges <span class="muted">(203.0.113.7, 10.0.0.0/8, 2001:db8::/32)</span>
          <textarea name="ipRanges" rows="3" spellcheck="false"></textarea></label>
        <label>Allowed contracts <span class="muted">(the <code>to</code> of calls and raw transactions, the address of log filters)</span>
          <textarea name="contracts" rows="3" spellcheck="false"></textarea></label>
        <label>Allowed methods <span class="muted">(eth_call, eth_getLogs, ...)</span>
          <textarea name="methods" rows="3" spellcheck="false"></textarea></label>
        <p class="error wide" id="allowlist-error" role="alert" hidden></p>
        <p class="notice wide" id="allowlist-notice" role="status" hidden></p>
        <div class="wide"><button type="submit" class="primary">Save allow lists</button></div>
      </form>
    </section>
    <section class="card" id="jwt-card" hidden>
      <h2>JWT keys</h2>
      <p class="muted">With a public key registered here, every request with this key must carry <code>Authorization: Bearer &lt;JWT&gt;</code> signed by its private key, expiring within ${MAX_JWT_LIFETIME_S / 3600} hours (WebSocket: the header, or <code>?access_token=&lt;JWT&gt;</code>); others get HTTP 401. At most ${MAX_JWT_KEYS} keys.</p>
      <ul id="jwt-keys" class="plain-list"></ul>
      <p id="no-jwt-keys" class="muted">No JWT keys: requests need no token.</p>
      <form id="jwt-form" class="grid-form">
        <label>Name <input name="name" required maxlength="100" placeholder="backend"></label>
        <label>Algorithm
          <select name="algorithm">
            <option value="RS256">RS256 (RSA)</option>
            <option value="ES256">ES256 (P-256)</option>
          </select>
        </label>
        <label class="wide">Public key <span class="muted">(PEM, -----BEGIN PUBLIC KEY-----, or a JWK)</span>
          <textarea name="publicKey" rows="5" spellcheck="false" required></textarea></label>
        <p class="error wide" id="jwt-error" role="alert" hidden></p>
        <div class="wide"><button type="submit" class="primary">Add JWT key</button></div>
      </form>
    </section>
    <p class="error" id="load-error" role="alert" hidden></p>`, true);
}
