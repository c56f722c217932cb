/*
 * The explorer's shared client helpers, loaded first on every explorer page (server/explorer.ts):
 * the read-only JSON-RPC call, element builders, links, value formats and the page frame. The views
 * (explorer-home.js, -block.js, -tx.js, -address.js) and the router (explorer.js) take them from one
 * namespace, window.Explorer, because the page loads plain scripts (the CSP allows only same-origin
 * files, and there is no bundler); each view registers itself in Explorer.views.
 * Every value goes in with textContent, never as HTML.
 */
'use strict';

(() => {
  const REMASC = '0x0000000000000000000000000000000001000008';
  /** RSK's native contracts (rskj PrecompiledContracts), named where they appear. */
  const NATIVE = {
    '0x0000000000000000000000000000000001000006': 'Bridge',
    '0x0000000000000000000000000000000001000008': 'REMASC',
    '0x0000000000000000000000000000000001000009': 'HDWalletUtils',
    '0x0000000000000000000000000000000001000010': 'BlockHeader',
    '0x0000000000000000000000000000000001000011': 'Environment',
  };

  const params = new URLSearchParams(location.search);
  const network = params.get('network') === 'mainnet' ? 'mainnet' : 'testnet';
  const main = document.getElementById('explorer-main');
  let rpcId = 0;

  async function rpc(method, args) {
    const response = await fetch(`/explorer/rpc/${network}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params: args }),
    });
    const answer = await response.json();
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  }

  /** el('td', { class: 'x' }, 'text', child): attributes set as attributes, children as text or nodes. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs ?? {})) if (value !== undefined) node.setAttribute(name, value);
    for (const child of children) {
      if (child === undefined || child === null) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  function href(path) {
    return `/explorer${path}${network === 'mainnet' ? '?network=mainnet' : ''}`;
  }
  const link = (path, text, cls) => el('a', { href: href(path), class: cls ?? 'mono' }, text);
  const blockLink = (number) => link(`/block/${BigInt(number)}`, BigInt(number).toString());
  const txLink = (hash) => link(`/tx/${hash}`, short(hash));
  function addressLink(address) {
    if (!address) return el('span', { class: 'muted' }, '—');
    const name = NATIVE[address.toLowerCase()];
    return link(`/address/${address}`, name ? `${name} (${short(address)})` : short(address));
  }
  const short = (hex) => (hex.length > 20 ? `${hex.slice(0, 10)}…${hex.slice(-8)}` : hex);

  /** A wei QUANTITY as RBTC with all 18 decimals kept, trailing zeros cut. */
  function rbtc(quantity) {
    const wei = BigInt(quantity);
    const whole = wei / 10n ** 18n;
    const frac = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
    return `${whole}${frac ? `.${frac}` : ''} RBTC`;
  }
  const dec = (quantity) => BigInt(quantity).toString();
  const when = (timestamp) => new Date(Number(BigInt(timestamp)) * 1000).toISOString().replace('.000Z', 'Z');

  /** A definition list of [label, value, id] rows; value is text or a node. */
  function facts(rows) {
    const list = el('dl', { class: 'facts' });
    for (const [label, value, id] of rows) list.append(el('dt', {}, label), el('dd', { id, class: typeof value === 'string' ? 'mono' : undefined }, value));
    return list;
  }

  function table(id, headings, rows) {
    const head = el('tr', {}, ...headings.map((h) => el('th', { scope: 'col' }, h)));
    // data-label: on a phone each row becomes a small block of labelled cells (explorer.css).
    const body = el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((c, i) => el('td', { 'data-label': headings[i] }, c)))));
    return el('div', { class: 'table-scroll' }, el('table', { id, class: 'explorer-table' }, el('thead', {}, head), body));
  }

  function card(title, ...children) {
    return el('section', { class: 'card' }, el('h1', {}, title), ...children);
  }

  function show(...nodes) {
    main.replaceChildren(...nodes);
  }

  function fail(message) {
    show(card('Not found', el('p', { class: 'error', role: 'alert' }, message), el('p', {}, el('a', { href: href('') }, 'Back to the latest blocks'))));
  }

  window.Explorer = Object.freeze({
    params,
    network,
    main,
    REMASC,
    NATIVE,
    rpc,
    el,
    href,
    link,
    blockLink,
    txLink,
    addressLink,
    short,
    rbtc,
    dec,
    when,
    facts,
    table,
    card,
    show,
    fail,
    /** The pages by name (home, block, transaction, address), filled by their scripts; explorer.js routes to them. */
    views: {},
  });
})();
