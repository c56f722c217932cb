// The dashboard's client script: fills the pages from the JSON API under /api.
// Every value from the API goes into the page as text (textContent, value, attributes), never as HTML.
'use strict';

(() => {
  const page = document.body.dataset.page;
  const maxKeys = Number(document.body.dataset.maxKeys) || 4;
  const accountPage = page === 'keys' || page === 'key';
  const NETWORKS = {
    testnet: { label: 'Testnet', chainId: 31 },
    mainnet: { label: 'Mainnet', chainId: 30 },
  };
  const SVG_NS = 'http://www.w3.org/2000/svg';

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  /** One call to the dashboard API; rejects with an ApiError carrying the API's own message. */
  async function api(method, path, body) {
    const init = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(`/api${path}`, init);
    } catch {
      throw new ApiError(0, 'The node did not answer. Is it still running?');
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      // not a JSON body: the status alone says what happened
    }
    if (!response.ok) {
      if (response.status === 401 && accountPage) {
        // The session ended (logged out elsewhere, or the node restarted).
        window.location.assign('/dashboard/login');
      }
      const message = data !== null && typeof data.error === 'string' ? data.error : `Request failed (HTTP ${response.status})`;
      throw new ApiError(response.status, message);
    }
    return data;
  }

  /** Creates an element; text is set with textContent, children appended as nodes. */
  function el(tag, options = {}, children = []) {
    const node = document.createElement(tag);
    if (options.className) node.className = options.className;
    if (options.text !== undefined) node.textContent = String(options.text);
    if (options.href) node.href = options.href;
    if (options.title) node.title = options.title;
    for (const child of children) node.append(child);
    return node;
  }

  function svg(tag, attributes = {}) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    return node;
  }

  function showMessage(node, message) {
    if (node === null) return;
    node.textContent = message;
    node.hidden = message === '';
  }

  const messageOf = (err) => (err instanceof Error ? err.message : String(err));

  /** 2024-05-01T12:34:56.000Z -> "2024-05-01 12:34 UTC" (the same for every visitor). */
  function formatTime(iso) {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return String(iso);
    return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  }

  const networkOf = (name) => NETWORKS[name] ?? { label: String(name), chainId: undefined };

  function networkBadge(name) {
    return el('span', { className: `badge network-${name === 'mainnet' ? 'mainnet' : 'testnet'}`, text: networkOf(name).label });
  }

  function statusBadge(key) {
    return key.revokedAt === null
      ? el('span', { className: 'badge status-active', text: 'Active' })
      : el('span', { className: 'badge status-revoked', text: 'Revoked', title: `Revoked ${formatTime(key.revokedAt)}` });
  }

  function confirmRevoke(key) {
    return window.confirm(`Revoke the key "${key.name}"? Requests with it will be refused from now on. This cannot be undone.`);
  }

  // ---- header: who is signed in, log out ------------------------------------------------------

  async function setUpAccountHeader() {
    const logout = document.getElementById('logout');
    logout?.addEventListener('click', async () => {
      logout.disabled = true;
      try {
        await api('POST', '/logout');
      } finally {
        window.location.assign('/dashboard/login');
      }
    });
    try {
      const me = await api('GET', '/me');
      const email = document.getElementById('user-email');
      // A line-break chance before the "@": a long address wraps there on a narrow screen.
      const at = me.email.lastIndexOf('@');
      if (email !== null) email.replaceChildren(...(at > 0 ? [me.email.slice(0, at), el('wbr'), me.email.slice(at)] : [me.email]));
    } catch {
      // a 401 already redirects; anything else leaves the header without the email
    }
  }

  // ---- sign up and log in ---------------------------------------------------------------------

  function setUpAuthForm(kind) {
    const form = document.getElementById('auth-form');
    const error = form.querySelector('.error');
    const button = form.querySelector('button[type="submit"]');
    if (kind === 'login') {
      const params = new URLSearchParams(window.location.search);
      if (params.get('created') === '1') showMessage(document.querySelector('.notice'), 'Account created. Log in to continue.');
    }
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      showMessage(error, '');
      const email = form.elements.email.value.trim();
      const password = form.elements.password.value;
      if (email === '' || password === '') {
        showMessage(error, 'Enter your email and password.');
        return;
      }
      if (kind === 'signup' && password.length < 8) {
        showMessage(error, 'The password needs at least 8 characters.');
        return;
      }
      button.disabled = true;
      try {
        await api('POST', `/${kind}`, { email, password });
        window.location.assign(kind === 'signup' ? '/dashboard/login?created=1' : '/dashboard/keys');
      } catch (err) {
        showMessage(error, messageOf(err));
        button.disabled = false;
      }
    });
  }

  // ---- the key list, the new-key form and usage ------------------------------------------------

  function setUpKeysPage() {
    const body = document.getElementById('keys-body');
    const listError = document.getElementById('list-error');
    const form = document.getElementById('new-key-form');
    const formError = document.getElementById('new-key-error');
    const formNotice = document.getElementById('new-key-notice');

    async function revoke(key, button) {
      if (!confirmRevoke(key)) return;
      button.disabled = true;
      showMessage(listError, '');
      try {
        await api('DELETE', `/keys/${encodeURIComponent(key.id)}`);
        await loadKeys();
      } catch (err) {
        showMessage(listError, messageOf(err));
        button.disabled = false;
      }
    }

    function renderKeys(keys) {
      const rows = keys.map((key) => {
        const nameCell = el('td', { className: 'key-name' }, [el('a', { href: `/dashboard/keys/${encodeURIComponent(key.id)}`, text: key.name })]);
        if (key.description) nameCell.append(el('div', { className: 'muted small', text: key.description }));
        const actions = el('td', { className: 'actions' });
        if (key.revokedAt === null) {
          const button = el('button', { className: 'danger small-button', text: 'Revoke' });
          button.type = 'button';
          button.setAttribute('aria-label', `Revoke ${key.name}`);
          button.addEventListener('click', () => revoke(key, button));
          actions.append(button);
        }
        const row = el('tr', {}, [
          nameCell,
          el('td', {}, [networkBadge(key.network)]),
          el('td', { className: 'created nowrap', text: formatTime(key.createdAt) }),
          el('td', {}, [statusBadge(key)]),
          actions,
        ]);
        if (key.revokedAt !== null) row.className = 'revoked';
        row.dataset.keyId = key.id;
        return row;
      });
      body.replaceChildren(...rows);
      document.getElementById('keys-table').hidden = keys.length === 0;
      document.getElementById('no-keys').hidden = keys.length !== 0;
      const active = keys.filter((k) => k.revokedAt === null).length;
      document.getElementById('key-count').textContent = `${active} of ${maxKeys} active keys`;
    }

    async function loadKeys() {
      try {
        const { keys } = await api('GET', '/keys');
        renderKeys(keys);
        showMessage(listError, '');
      } catch (err) {
        showMessage(listError, `Could not load the keys: ${messageOf(err)}`);
      }
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      showMessage(formError, '');
      showMessage(formNotice, '');
      const name = form.elements.name.value.trim();
      const network = form.elements.network.value;
      const description = form.elements.description.value.trim();
      if (name === '' || network === '') {
        showMessage(formError, name === '' ? 'Give the key a name.' : 'Choose a network.');
        (name === '' ? form.elements.name : form.elements.network).focus();
        return;
      }
      const button = form.querySelector('button[type="submit"]');
      button.disabled = true;
      try {
        const key = await api('POST', '/keys', description === '' ? { name, network } : { name, network, description });
        form.reset();
        formNotice.replaceChildren(
          `Key "${key.name}" created. `,
          el('a', { href: `/dashboard/keys/${encodeURIComponent(key.id)}`, text: 'Open it to copy its URL.' }),
        );
        formNotice.hidden = false;
        await loadKeys();
      } catch (err) {
        showMessage(formError, messageOf(err));
      } finally {
        button.disabled = false;
      }
    });

    loadKeys();
    loadUsage();
  }

  async function loadUsage() {
    const error = document.getElementById('usage-error');
    try {
      const usage = await api('GET', '/usage');
      const meter = document.getElementById('usage-meter');
      meter.max = Math.max(1, usage.limit);
      meter.low = usage.limit * 0.75;
      meter.high = usage.limit * 0.9;
      meter.optimum = 0;
      meter.value = Math.min(usage.used, usage.limit);
      meter.title = `${usage.used} of ${usage.limit} requests`;
      document.getElementById('usage-used').textContent = usage.used.toLocaleString('en-US');
      document.getElementById('usage-limit').textContent = usage.limit.toLocaleString('en-US');
      document.getElementById('usage-remaining').textContent = usage.remaining.toLocaleString('en-US');
      renderChart(document.getElementById('usage-chart'), usage.history);
      showMessage(error, '');
    } catch (err) {
      showMessage(error, `Could not load the usage: ${messageOf(err)}`);
    }
  }

  /**
   * Requests per day as a small bar chart: one bar a day, oldest on the left. The SVG holds only the
   * bars and stretches to the figure's width (preserveAspectRatio none); its labels are HTML text
   * around it, so they keep a readable size however narrow the screen.
   */
  function renderChart(figure, history) {
    const width = 600;
    const height = 100;
    const top = 4;
    const plot = height - top - 1;
    const slot = width / Math.max(1, history.length);
    const busiest = Math.max(0, ...history.map((d) => d.requests));
    const peak = Math.max(1, busiest);
    const chart = svg('svg', {
      viewBox: `0 0 ${width} ${height}`,
      preserveAspectRatio: 'none',
      role: 'img',
      class: 'bars',
      'aria-labelledby': `${figure.id}-caption`,
    });
    chart.append(svg('line', { x1: 0, x2: width, y1: top + plot + 0.5, y2: top + plot + 0.5, class: 'axis' }));
    history.forEach((day, i) => {
      const h = day.requests === 0 ? 0 : Math.max(2, (day.requests / peak) * plot);
      const bar = svg('rect', {
        x: (i * slot + slot * 0.15).toFixed(1),
        y: (top + plot - h).toFixed(1),
        width: (slot * 0.7).toFixed(1),
        height: h.toFixed(1),
        rx: 1.5,
        class: i === history.length - 1 ? 'bar today' : 'bar',
      });
      const title = svg('title');
      title.textContent = `${day.day}: ${day.requests.toLocaleString('en-US')} requests`;
      bar.append(title);
      chart.append(bar);
    });
    const peakLabel = el('p', { className: 'chart-peak muted', text: `busiest day: ${busiest.toLocaleString('en-US')}` });
    const days = el('div', { className: 'chart-days muted' });
    if (history.length > 0) {
      days.append(el('span', { text: history[0].day }), el('span', { text: `${history[history.length - 1].day} (today)` }));
    }
    const total = history.reduce((sum, d) => sum + d.requests, 0);
    const caption = el('figcaption', { className: 'muted small', text: `${total.toLocaleString('en-US')} requests in the last ${history.length} days.` });
    caption.id = `${figure.id}-caption`;
    figure.replaceChildren(peakLabel, chart, days, caption);
  }

  // ---- recipes: the key's URL in the setups of common tools --------------------------------------

  /** A JavaScript string literal (the URL holds only URL characters, but quotes stay escaped). */
  const jsString = (text) => `'${String(text).replace(/[\\']/g, '\\$&')}'`;

  /**
   * The recipes for a key's URL and chain id: title, code, and a note. viem names the chain by its
   * definition in viem/chains (rootstock is 30, rootstockTestnet 31).
   */
  function recipes(url, chainId, network) {
    const testnet = chainId === 31;
    const viemChain = testnet ? 'rootstockTestnet' : 'rootstock';
    const hardhatName = testnet ? 'rskTestnet' : 'rskMainnet';
    return [
      {
        id: 'ethers',
        title: 'ethers v6',
        code: [
          "import { JsonRpcProvider } from 'ethers';",
          '',
          `// Rootstock ${network} (chain id ${chainId}); staticNetwork skips the chain id lookup on each start.`,
          `const provider = new JsonRpcProvider(${jsString(url)}, ${chainId}, { staticNetwork: true });`,
          'console.log(await provider.getBlockNumber());',
        ].join('\n'),
        note: 'Sign with a Wallet connected to this provider: new Wallet(privateKey, provider).',
      },
      {
        id: 'viem',
        title: 'viem',
        code: [
          "import { createPublicClient, http } from 'viem';",
          `import { ${viemChain} } from 'viem/chains'; // chain id ${chainId}`,
          '',
          `const client = createPublicClient({ chain: ${viemChain}, transport: http(${jsString(url)}) });`,
          'console.log(await client.getBlockNumber());',
        ].join('\n'),
        note: 'For transactions, createWalletClient with the same chain and transport and a local account (privateKeyToAccount).',
      },
      {
        id: 'web3',
        title: 'web3.js',
        code: [
          "import { Web3 } from 'web3';",
          '',
          `const web3 = new Web3(${jsString(url)}); // chain id ${chainId}`,
          'console.log(await web3.eth.getBlockNumber());',
        ].join('\n'),
        note: 'Add a signing account with web3.eth.accounts.wallet.add(privateKey).',
      },
      {
        id: 'hardhat',
        title: 'Hardhat network',
        code: [
          '// hardhat.config.js (Hardhat 2): npx hardhat run scripts/deploy.js --network ' + hardhatName,
          'module.exports = {',
          "  solidity: '0.8.24',",
          '  networks: {',
          `    ${hardhatName}: {`,
          `      url: ${jsString(url)},`,
          `      chainId: ${chainId},`,
          '      // The gateway holds no keys for you: Hardhat signs with these (never commit them).',
          '      accounts: process.env.DEPLOYER_KEY ? [process.env.DEPLOYER_KEY] : [],',
          '    },',
          '  },',
          '};',
        ].join('\n'),
        note: 'accounts is required to send transactions: the node does not sign for dashboard keys (eth_accounts is empty). Hardhat 3 takes the same url and chainId with type: "http".',
      },
      {
        id: 'foundry',
        title: 'Foundry (cast, forge)',
        code: [
          `export RSK_RPC_URL=${url}`,
          'cast chain-id --rpc-url "$RSK_RPC_URL"        # ' + chainId,
          'cast block-number --rpc-url "$RSK_RPC_URL"',
          '# RSK has no EIP-1559 fees: send legacy (type 0) transactions.',
          'forge create src/Counter.sol:Counter --legacy --broadcast --rpc-url "$RSK_RPC_URL" --private-key "$DEPLOYER_KEY"',
          'cast send <address> "increment()" --legacy --rpc-url "$RSK_RPC_URL" --private-key "$DEPLOYER_KEY"',
        ].join('\n'),
        note: 'Without --legacy, cast and forge send EIP-1559 (type 2) transactions, which RSK refuses.',
      },
    ];
  }

  function renderRecipes(key, form, status) {
    const network = networkOf(key.network);
    const url = form === 'v2' ? key.v2Url : key.url;
    const blocks = recipes(url, network.chainId, network.label).map((recipe) => {
      const code = el('code', { text: recipe.code });
      code.id = `recipe-${recipe.id}`;
      const button = el('button', { className: 'small-button', text: 'Copy' });
      button.type = 'button';
      button.setAttribute('aria-label', `Copy the ${recipe.title} recipe`);
      button.addEventListener('click', async () => {
        try {
          if (navigator.clipboard === undefined) throw new Error('no clipboard API');
          await navigator.clipboard.writeText(recipe.code);
          status.textContent = `${recipe.title} recipe copied to the clipboard.`;
        } catch {
          window.getSelection()?.selectAllChildren(code);
          status.textContent = 'Could not reach the clipboard: the recipe is selected, press Ctrl+C (or Cmd+C) to copy it.';
        }
      });
      const block = el('article', { className: 'recipe' }, [
        el('div', { className: 'recipe-head' }, [el('h3', { text: recipe.title }), button]),
        el('pre', {}, [code]),
        el('p', { className: 'muted small', text: recipe.note }),
      ]);
      block.dataset.recipe = recipe.id;
      return block;
    });
    document.getElementById('recipes').replaceChildren(...blocks);
  }

  // ---- one key's usage: per day, and by method --------------------------------------------------

  async function loadKeyUsage(id) {
    const error = document.getElementById('key-usage-error');
    try {
      const usage = await api('GET', `/keys/${encodeURIComponent(id)}/usage`);
      renderChart(document.getElementById('key-usage-chart'), usage.days);
      const today = new Map(usage.days[usage.days.length - 1].methods.map((m) => [m.method, m.requests]));
      const totals = new Map();
      for (const day of usage.days) for (const m of day.methods) totals.set(m.method, (totals.get(m.method) ?? 0) + m.requests);
      const rows = [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      const busiest = rows.length === 0 ? 1 : rows[0][1];
      const body = rows.map(([method, total]) => {
        const bar = el('span', { className: 'method-bar' });
        bar.style.width = `${Math.max(2, (total / busiest) * 100).toFixed(1)}%`;
        const name = el('td', { className: 'method-name' }, [el('code', { text: method }), el('span', { className: 'method-track' }, [bar])]);
        const row = el('tr', {}, [name, el('td', { className: 'num', text: (today.get(method) ?? 0).toLocaleString('en-US') }), el('td', { className: 'num', text: total.toLocaleString('en-US') })]);
        row.dataset.method = method;
        return row;
      });
      document.getElementById('methods-body').replaceChildren(...body);
      document.getElementById('methods-table').hidden = rows.length === 0;
      document.getElementById('no-methods').hidden = rows.length !== 0;
      document.getElementById('key-usage-card').hidden = false;
      showMessage(error, '');
    } catch (err) {
      document.getElementById('key-usage-card').hidden = false;
      showMessage(error, `Could not load the usage: ${messageOf(err)}`);
    }
  }

  // ---- one key: its URL, copy, revoke ----------------------------------------------------------

  function setUpKeyPage() {
    const id = decodeURIComponent(window.location.pathname.replace(/\/+$/, '').split('/').pop() ?? '');
    const section = document.getElementById('key-detail');
    const loadError = document.getElementById('load-error');
    const keyError = document.getElementById('key-error');
    const urlField = document.getElementById('key-url');
    const v2Field = document.getElementById('key-v2-url');
    const copyButton = document.getElementById('copy-url');
    const copyStatus = document.getElementById('copy-status');
    const revokeButton = document.getElementById('revoke-key');
    const recipeAddress = document.getElementById('recipe-address');
    let current = null;
    recipeAddress.addEventListener('change', () => {
      if (current !== null) renderRecipes(current, recipeAddress.value, document.getElementById('recipe-status'));
    });

    function render(key) {
      current = key;
      const network = networkOf(key.network);
      document.title = `${key.name} · rsk-devnode`;
      document.getElementById('key-name').textContent = key.name;
      const status = document.getElementById('key-status');
      status.textContent = key.revokedAt === null ? 'Active' : 'Revoked';
      status.className = `badge ${key.revokedAt === null ? 'status-active' : 'status-revoked'}`;
      showMessage(document.getElementById('key-description'), key.description ?? '');
      document.getElementById('key-network').replaceChildren(networkBadge(key.network));
      document.getElementById('key-chain-id').textContent = network.chainId === undefined ? 'unknown' : `${network.chainId} (0x${network.chainId.toString(16)})`;
      document.getElementById('key-created').textContent = formatTime(key.createdAt);
      const revoked = key.revokedAt !== null;
      document.getElementById('key-revoked-label').hidden = !revoked;
      const revokedAt = document.getElementById('key-revoked');
      revokedAt.hidden = !revoked;
      revokedAt.textContent = revoked ? formatTime(key.revokedAt) : '';
      urlField.value = key.url;
      urlField.classList.toggle('revoked', revoked);
      v2Field.value = key.v2Url;
      v2Field.classList.toggle('revoked', revoked);
      renderOptions(key);
      renderRecipes(key, recipeAddress.value, document.getElementById('recipe-status'));
      document.getElementById('recipes-card').hidden = revoked;
      revokeButton.hidden = revoked;
      document.getElementById('revoke-hint').textContent = revoked
        ? 'This key was revoked: requests with it are refused (HTTP 401).'
        : 'Revoking is permanent: requests with this key are refused from then on.';
      section.hidden = false;
    }

    async function copy(field) {
      copyStatus.textContent = '';
      try {
        if (navigator.clipboard === undefined) throw new Error('no clipboard API');
        await navigator.clipboard.writeText(field.value);
        copyStatus.textContent = 'Copied to the clipboard.';
      } catch {
        // No clipboard access (e.g. a page served over plain http to another host): select it instead.
        field.focus();
        field.select();
        copyStatus.textContent = 'Could not reach the clipboard: the URL is selected, press Ctrl+C (or Cmd+C) to copy it.';
      }
    }
    copyButton.addEventListener('click', () => copy(urlField));
    document.getElementById('copy-v2-url').addEventListener('click', () => copy(v2Field));
    urlField.addEventListener('focus', () => urlField.select());
    v2Field.addEventListener('focus', () => v2Field.select());

    // ---- the key's options: allow lists and JWT keys (the alternative provider's app settings)

    const allowForm = document.getElementById('allowlist-form');
    const allowError = document.getElementById('allowlist-error');
    const allowNotice = document.getElementById('allowlist-notice');
    const jwtForm = document.getElementById('jwt-form');
    const jwtError = document.getElementById('jwt-error');
    const RULES = ['origins', 'ipRanges', 'contracts', 'methods'];

    function renderOptions(key) {
      const open = key.revokedAt === null;
      document.getElementById('allowlist-card').hidden = !open;
      document.getElementById('jwt-card').hidden = !open;
      for (const rule of RULES) allowForm.elements[rule].value = key.allowlist[rule].join('\n');
      const items = key.jwtKeys.map((jwtKey) => {
        const remove = el('button', { className: 'danger small-button', text: 'Remove' });
        remove.type = 'button';
        remove.setAttribute('aria-label', `Remove ${jwtKey.name}`);
        remove.addEventListener('click', () => removeJwtKey(jwtKey, remove));
        const item = el('li', {}, [el('span', {}, [el('strong', { text: jwtKey.name }), ` ${jwtKey.algorithm} · added ${formatTime(jwtKey.createdAt)}`]), remove]);
        item.dataset.jwtKeyId = jwtKey.id;
        return item;
      });
      document.getElementById('jwt-keys').replaceChildren(...items);
      document.getElementById('no-jwt-keys').hidden = items.length !== 0;
    }

    allowForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      showMessage(allowError, '');
      showMessage(allowNotice, '');
      const lists = {};
      for (const rule of RULES) lists[rule] = allowForm.elements[rule].value.split('\n').map((line) => line.trim()).filter((line) => line !== '');
      const button = allowForm.querySelector('button[type="submit"]');
      button.disabled = true;
      try {
        render(await api('PUT', `/keys/${encodeURIComponent(current.id)}/allowlist`, lists));
        showMessage(allowNotice, 'Allow lists saved: they apply to the next request.');
      } catch (err) {
        showMessage(allowError, messageOf(err));
      } finally {
        button.disabled = false;
      }
    });

    jwtForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      showMessage(jwtError, '');
      const name = jwtForm.elements.name.value.trim();
      const text = jwtForm.elements.publicKey.value.trim();
      if (name === '' || text === '') {
        showMessage(jwtError, name === '' ? 'Give the JWT key a name.' : 'Paste the public key (PEM or JWK).');
        return;
      }
      let publicKey = text;
      if (text.startsWith('{')) {
        try {
          publicKey = JSON.parse(text);
        } catch {
          showMessage(jwtError, 'The JWK is not valid JSON.');
          return;
        }
      }
      const button = jwtForm.querySelector('button[type="submit"]');
      button.disabled = true;
      try {
        render(await api('POST', `/keys/${encodeURIComponent(current.id)}/jwt-keys`, { name, algorithm: jwtForm.elements.algorithm.value, publicKey }));
        jwtForm.reset();
      } catch (err) {
        showMessage(jwtError, messageOf(err));
      } finally {
        button.disabled = false;
      }
    });

    async function removeJwtKey(jwtKey, button) {
      if (!window.confirm(`Remove the JWT key "${jwtKey.name}"? Tokens signed with it stop working at once.`)) return;
      button.disabled = true;
      showMessage(jwtError, '');
      try {
        render(await api('DELETE', `/keys/${encodeURIComponent(current.id)}/jwt-keys/${encodeURIComponent(jwtKey.id)}`));
      } catch (err) {
        showMessage(jwtError, messageOf(err));
        button.disabled = false;
      }
    }

    revokeButton.addEventListener('click', async () => {
      if (current === null || !confirmRevoke(current)) return;
      revokeButton.disabled = true;
      showMessage(keyError, '');
      try {
        render(await api('DELETE', `/keys/${encodeURIComponent(current.id)}`));
      } catch (err) {
        showMessage(keyError, messageOf(err));
      } finally {
        revokeButton.disabled = false;
      }
    });

    (async () => {
      try {
        const { keys } = await api('GET', '/keys');
        const key = keys.find((k) => k.id === id);
        if (key === undefined) showMessage(loadError, 'No such key: it does not exist or belongs to another account.');
        else {
          render(key);
          await loadKeyUsage(key.id);
        }
      } catch (err) {
        showMessage(loadError, `Could not load the key: ${messageOf(err)}`);
      }
    })();
  }

  if (accountPage) setUpAccountHeader();
  if (page === 'signup' || page === 'login') setUpAuthForm(page);
  else if (page === 'keys') setUpKeysPage();
  else if (page === 'key') setUpKeyPage();
})();
