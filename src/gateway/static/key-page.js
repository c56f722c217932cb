// The client script of one key's page (/dashboard/keys/:id): its URLs, recipes, usage by method,
// allow lists, JWT keys and revoking. Loaded only on that page, after dashboard-shared.js (its
// helpers) and app.js (the header). Every value from the API goes into the page as text, never as HTML.
'use strict';

(() => {
  const { api, el, showMessage, messageOf, formatTime, networkOf, networkBadge, confirmRevoke, renderChart } = window.Dashboard;

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

  setUpKeyPage();
})();
