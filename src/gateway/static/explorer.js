/*
 * rsk-devnode explorer: reads the chain through the node's read-only endpoint /explorer/rpc/<network>
 * and builds each page with DOM calls; every value goes in with textContent, never as HTML.
 * This script, loaded last, wires the header (search, network) and routes the path to its view:
 * / (explorer-home.js), /block/<number|hash> (explorer-block.js), /tx/<hash> (explorer-tx.js),
 * /address/<address> (explorer-address.js); ?network=testnet|mainnet picks the chain.
 * The helpers they share are explorer-shared.js.
 */
'use strict';

(() => {
  const { params, network, main, rpc, el, href, fail, views } = window.Explorer;

  // ---- search and network ----

  /** Where a search goes: a number is a block, 32 bytes a transaction (else a block) hash, 20 bytes an address. */
  async function search(query) {
    const q = query.trim();
    if (/^\d{1,20}$/.test(q)) return href(`/block/${q}`);
    if (/^0x[0-9a-fA-F]{40}$/.test(q)) return href(`/address/${q}`);
    if (/^0x[0-9a-fA-F]{64}$/.test(q)) {
      if (await rpc('eth_getTransactionByHash', [q])) return href(`/tx/${q}`);
      if (await rpc('eth_getBlockByHash', [q, false])) return href(`/block/${q}`);
      throw new Error(`Nothing on ${network} has the hash ${q}.`);
    }
    throw new Error('Enter a block number, a block or transaction hash (0x + 64 hex digits) or an address (0x + 40 hex digits).');
  }

  function wireHeader() {
    const select = document.getElementById('network');
    select.value = network;
    select.addEventListener('change', () => {
      location.href = `/explorer${select.value === 'mainnet' ? '?network=mainnet' : ''}`;
    });
    const form = document.getElementById('search');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const input = document.getElementById('search-input');
      search(input.value).then((target) => { location.href = target; }, (error) => {
        let note = document.getElementById('search-error');
        if (!note) {
          note = el('p', { class: 'error', id: 'search-error', role: 'alert' });
          main.prepend(note);
        }
        note.textContent = error.message;
      });
    });
  }

  function route() {
    const parts = location.pathname.replace(/^\/explorer\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
    if (parts.length === 0) return views.home();
    if (parts.length === 2 && parts[0] === 'block') return views.block(parts[1]);
    if (parts.length === 2 && parts[0] === 'tx') return views.transaction(parts[1]);
    if (parts.length === 2 && parts[0] === 'address') {
      const before = params.get('before');
      return views.address(parts[1], before !== null && /^\d{1,20}$/.test(before) ? BigInt(before) : 0n);
    }
    return fail('There is no explorer page here.');
  }

  wireHeader();
  route().catch((error) => fail(error.message));
})();
