/*
 * rsk-devnode explorer: reads the chain through the node's read-only endpoint /explorer/rpc/<network>
 * and builds each page with DOM calls; every value goes in with textContent, never as HTML.
 * Pages: / (latest blocks and transactions, live through the node's newHeads subscription on the
 * explorer's socket /explorer/ws/<network>, polled when the socket fails), /block/<number|hash>, /tx/<hash>,
 * /address/<address>; ?network=testnet|mainnet picks the chain.
 */
'use strict';

/** How often the home page asks for a new head when the explorer's socket fails (no WebSocket on the way). */
const POLL_MS = 2000;
/** Blocks on the home page; their transactions fill the second list. */
const LATEST_BLOCKS = 10;
const LATEST_TXS = 10;
/** Transactions per address page (the address index answers whole blocks, at least this many). */
const PAGE_SIZE = 25;

const REMASC = '0x0000000000000000000000000000000001000008';
/** RSK's native contracts (rskj PrecompiledContracts), named where they appear. */
const NATIVE = {
  '0x0000000000000000000000000000000001000006': 'Bridge',
  '0x0000000000000000000000000000000001000008': 'REMASC',
  '0x0000000000000000000000000000000001000009': 'HDWalletUtils',
  '0x0000000000000000000000000000000001000010': 'BlockHeader',
  '0x0000000000000000000000000000000001000011': 'Environment',
};
/** keccak256 of the event signatures decoded by topic. */
const EVENTS = {
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef': 'Transfer',
  '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925': 'Approval',
  '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31': 'ApprovalForAll',
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

// ---- home ----

async function home() {
  let shown = -1n;
  /** 'connecting' until the socket's newHeads subscription is on, then 'live'; 'polling' once it failed. */
  let updates = 'connecting';
  const refresh = async () => {
    const head = BigInt(await rpc('eth_blockNumber', []));
    if (head === shown) return;
    shown = head;
    const numbers = [];
    for (let n = head; n >= 0n && numbers.length < LATEST_BLOCKS; n--) numbers.push(n);
    const blocks = await Promise.all(numbers.map((n) => rpc('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])));
    const txs = blocks.flatMap((b) => [...b.transactions].reverse()).slice(0, LATEST_TXS);
    show(
      el('section', { class: 'card' }, el('h1', {}, `Latest blocks · ${network}`),
        el('p', { class: 'muted', id: 'head', 'data-updates': updates },
          `Head: block ${head}.${{ connecting: '', live: ' New blocks appear as they are mined.', polling: ` Updates every ${POLL_MS / 1000} s.` }[updates]}`),
        table('blocks', ['Block', 'Hash', 'Txs', 'Time'], blocks.map((b) => [blockLink(b.number), el('span', { class: 'mono' }, short(b.hash)), String(b.transactions.length), when(b.timestamp)]))),
      el('section', { class: 'card' }, el('h2', {}, 'Latest transactions'),
        txs.length === 0
          ? el('p', { class: 'muted' }, 'No transactions in these blocks.')
          : table('txs', ['Hash', 'Block', 'From', 'To', 'Value'], txs.map((t) => [txLink(t.hash), blockLink(t.blockNumber), addressLink(t.from), t.to === REMASC ? el('span', { class: 'badge' }, 'REMASC') : addressLink(t.to), rbtc(t.value)]))),
    );
  };
  const update = oneAtATime(refresh);
  await refresh();
  const showMode = (mode) => {
    updates = mode;
    shown = -1n; // shows the new mode at once
    update();
  };
  followHeads(update, () => showMode('live'), () => {
    showMode('polling');
    setInterval(update, POLL_MS);
  });
}

/** `task` run by the returned function one run at a time; calls during a run make one more run after it. */
function oneAtATime(task) {
  let running = false;
  let again = false;
  return async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await task().catch(() => undefined);
      } while (again);
    } finally {
      running = false;
    }
  };
}

/**
 * Calls `onHead` for each block the node announces on the explorer's socket, `onLive` once the
 * subscription is on, `onFail` once if the socket cannot serve (then never `onHead` again).
 */
function followHeads(onHead, onLive, onFail) {
  let failed = false;
  const fail = () => {
    if (failed) return;
    failed = true;
    onFail();
  };
  let socket;
  try {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/explorer/ws/${network}`);
  } catch {
    return fail();
  }
  socket.addEventListener('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] })));
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    if (failed) return;
    if (message.method === 'eth_subscription') onHead();
    else if (message.error) socket.close();
    else if (message.id === 1) onLive();
  });
  // An error is followed by close; a socket closed at any time (node restarted, proxy) falls back to polling.
  socket.addEventListener('close', fail);
}

// ---- block ----

async function block(id) {
  const block = /^0x[0-9a-fA-F]{64}$/.test(id)
    ? await rpc('eth_getBlockByHash', [id, true])
    : /^\d{1,20}$/.test(id) ? await rpc('eth_getBlockByNumber', [`0x${BigInt(id).toString(16)}`, true]) : null;
  if (!block) return fail(`There is no block ${id} on ${network}.`);
  const b = block;
  const merged = await fetch(`/explorer/api/${network}/merged-mining/${b.hash}`).then((r) => (r.ok ? r.json() : undefined));
  show(
    card(`Block ${dec(b.number)}`, facts([
      ['Number', dec(b.number), 'block-number'],
      ['Hash', b.hash, 'block-hash'],
      ['Parent', b.number === '0x0' ? b.parentHash : link(`/block/${b.parentHash}`, b.parentHash)],
      ['Time', `${when(b.timestamp)} (${dec(b.timestamp)})`],
      ['Miner', addressLink(b.miner)],
      ['Transactions', String(b.transactions.length)],
      ['Gas used / limit', `${dec(b.gasUsed)} / ${dec(b.gasLimit)}`],
      ['Minimum gas price', `${dec(b.minimumGasPrice)} wei`, 'block-min-gas-price'],
      ['Paid fees', rbtc(b.paidFees), 'block-paid-fees'],
      ['Difficulty', dec(b.difficulty)],
      ['Cumulative difficulty', dec(b.cumulativeDifficulty)],
      ['Total difficulty', dec(b.totalDifficulty)],
      ['Size', `${dec(b.size)} bytes`],
      ['State root', b.stateRoot],
      ['Transactions root', b.transactionsRoot],
      ['Receipts root', b.receiptsRoot],
      ['Extra data', b.extraData],
      ['Hash for merged mining', b.hashForMergedMining, 'block-hfmm'],
      ['Bitcoin merged-mining header', b.bitcoinMergedMiningHeader, 'block-mm-header'],
      ['Bitcoin merged-mining coinbase', b.bitcoinMergedMiningCoinbaseTransaction, 'block-mm-coinbase'],
      ['Bitcoin merged-mining Merkle proof', b.bitcoinMergedMiningMerkleProof, 'block-mm-proof'],
    ])),
    mergedMiningCard(b, merged),
    el('section', { class: 'card' }, el('h2', {}, 'Transactions'),
      b.transactions.length === 0
        ? el('p', { class: 'muted' }, 'No transactions.')
        : table('block-txs', ['Hash', 'From', 'To', 'Value'], b.transactions.map((t) => [txLink(t.hash), addressLink(t.from), t.to === REMASC ? el('span', { class: 'badge' }, 'REMASC') : addressLink(t.to), rbtc(t.value)]))),
  );
}

/** The Bitcoin side of a block: its header's fields, the stored coinbase and its tag, the proof, the verdict. */
function mergedMiningCard(b, merged) {
  const section = el('section', { class: 'card', id: 'merged-mining' }, el('h2', {}, 'Merged mining'));
  if (!merged) {
    section.append(el('p', { class: 'muted' }, 'Not stored on this node (a forked chain\'s remote block).'));
    return section;
  }
  section.append(el('p', { id: 'mm-valid', class: merged.valid ? 'mm-valid' : 'mm-invalid' },
    merged.valid ? 'The proof validates: the Bitcoin header meets the difficulty and its Merkle root commits to a coinbase tagged with this block\'s hash for merged mining.'
      : `The proof does not validate: ${merged.reason}.`));
  const h = merged.header;
  if (h) {
    section.append(el('h3', {}, 'Bitcoin header'), facts([
      ['Hash', h.hash, 'mm-btc-hash'],
      ['Version', String(h.version), 'mm-version'],
      ['Previous block', h.previousBlockHash],
      ['Merkle root', h.merkleRoot, 'mm-merkle-root'],
      ['Time', `${new Date(h.time * 1000).toISOString().replace('.000Z', 'Z')} (${h.time})`],
      ['Bits', h.bits, 'mm-bits'],
      ['Nonce', String(h.nonce), 'mm-nonce'],
    ]));
  }
  const c = merged.coinbase;
  if (c) {
    const matches = c.taggedHash === b.hashForMergedMining;
    section.append(el('h3', {}, 'Coinbase (as RSK stores it: SHA-256 midstate, then the tail)'), facts([
      ['Bytes before the tail', c.hashedByteCount],
      ['Midstate', c.midstate],
      ['Tail', c.tail, 'mm-tail'],
      ['Tag', c.tagOffset < 0 ? 'no RSKBLOCK: tag' : `RSKBLOCK: at tail offset ${c.tagOffset}, followed by ${c.taggedHash ?? '(cut short)'}`, 'mm-tag'],
      ['Tagged hash', matches ? 'equals this block\'s hash for merged mining' : 'differs from this block\'s hash for merged mining', 'mm-tag-match'],
    ]));
  }
  section.append(el('h3', {}, `Merkle proof (${merged.merkleProof.length} sibling${merged.merkleProof.length === 1 ? '' : 's'})`),
    merged.merkleProof.length === 0
      ? el('p', { class: 'muted', id: 'mm-proof' }, 'Empty: the coinbase is the Bitcoin block\'s only transaction, so its txid is the Merkle root.')
      : el('ol', { id: 'mm-proof', class: 'mono' }, ...merged.merkleProof.map((hash) => el('li', {}, hash))));
  return section;
}

// ---- transaction ----

const word = (hex, i) => `0x${hex.slice(2 + 64 * i, 2 + 64 * (i + 1))}`;
const topicAddress = (topic) => `0x${topic.slice(26)}`;

/** Transfer / Approval / ApprovalForAll as ERC-20 (amount in data) or ERC-721 (token id in topic 3). */
function decodeLog(log) {
  const name = EVENTS[log.topics[0]];
  if (!name) return undefined;
  const [, a, b, c] = log.topics;
  if (name === 'ApprovalForAll' && a && b) return `ApprovalForAll(owner ${topicAddress(a)}, operator ${topicAddress(b)}, approved ${BigInt(word(log.data, 0)) !== 0n})`;
  if (!a || !b) return undefined;
  const [first, second] = name === 'Transfer' ? ['from', 'to'] : ['owner', 'spender'];
  if (c) return `${name} (ERC-721): ${first} ${topicAddress(a)}, ${second} ${topicAddress(b)}, tokenId ${BigInt(c)}`;
  if (log.data.length >= 66) return `${name} (ERC-20): ${first} ${topicAddress(a)}, ${second} ${topicAddress(b)}, value ${BigInt(word(log.data, 0))}`;
  return undefined;
}

/** ABI values of the native contracts' types (uint256, int256, bool, address, bytes32, bytes, string, bytes32[], bytes[]) as text. */
function decodeValues(types, hex) {
  const data = hex.startsWith('0x') ? hex.slice(2) : hex;
  const wordAt = (byte) => {
    const w = data.slice(byte * 2, byte * 2 + 64);
    if (w.length !== 64) throw new Error('call data too short');
    return w;
  };
  const offsetAt = (byte) => Number(BigInt(`0x${wordAt(byte)}`));
  const bytesAt = (byte) => {
    const length = offsetAt(byte);
    const body = data.slice((byte + 32) * 2, (byte + 32 + length) * 2);
    if (body.length !== length * 2) throw new Error('call data too short');
    return body;
  };
  const value = (type, base, head) => {
    if (type === 'bytes') return `0x${bytesAt(base + offsetAt(head))}`;
    if (type === 'string') {
      const body = bytesAt(base + offsetAt(head));
      return JSON.stringify(new TextDecoder().decode(Uint8Array.from(body.match(/../g) ?? [], (b) => parseInt(b, 16))));
    }
    if (type === 'bytes32[]' || type === 'bytes[]') {
      const start = base + offsetAt(head);
      const count = offsetAt(start);
      const items = [];
      for (let i = 0; i < count; i++) items.push(value(type.slice(0, -2), start + 32, start + 32 + 32 * i));
      return `[${items.join(', ')}]`;
    }
    const w = wordAt(head);
    if (type === 'address') return `0x${w.slice(24)}`;
    if (type === 'bool') return String(BigInt(`0x${w}`) !== 0n);
    if (type === 'int256') return BigInt.asIntN(256, BigInt(`0x${w}`)).toString();
    if (type === 'uint256') return BigInt(`0x${w}`).toString();
    return `0x${w}`;
  };
  return types.map((type, i) => value(type, 0, 32 * i));
}

function decodeAbi(params, hex) {
  const values = decodeValues(params.map((p) => p.type), hex);
  return params.map((p, i) => `${p.name || `arg${i}`}: ${values[i]}`).join(', ');
}

let nativeAbis;
const loadNativeAbis = async () => (nativeAbis ??= await fetch('/explorer/api/native-abis').then((r) => r.json()));

/** A call to a native contract as name(arguments), from the node's table of their ABIs; undefined for other addresses. */
function decodeNativeCall(to, input) {
  const contract = nativeAbis?.[(to ?? '').toLowerCase()];
  if (!contract) return undefined;
  const fn = contract.functions[input.slice(0, 10)];
  if (!fn) return `${contract.name}: no method has the selector ${input.slice(0, 10)}`;
  try {
    return `${contract.name}.${fn.name}(${decodeAbi(fn.inputs, input.slice(10))})`;
  } catch (error) {
    return `${contract.name}.${fn.name}(…): ${error.message}`;
  }
}

function callTree(frame) {
  const label = `${frame.type} ${frame.to ?? ''}${NATIVE[(frame.to ?? '').toLowerCase()] ? ` (${NATIVE[frame.to.toLowerCase()]})` : ''}` +
    ` · value ${rbtc(frame.value ?? '0x0')} · gas ${dec(frame.gasUsed ?? '0x0')}${frame.error ? ` · ${frame.error}` : ''}`;
  const item = el('li', {}, el('span', { class: 'mono' }, label));
  if (frame.calls?.length) item.append(el('ul', {}, ...frame.calls.map(callTree)));
  return item;
}

async function transaction(hash) {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return fail(`${hash} is not a transaction hash.`);
  const [tx, receipt] = await Promise.all([rpc('eth_getTransactionByHash', [hash]), rpc('eth_getTransactionReceipt', [hash])]);
  if (!tx) return fail(`There is no transaction ${hash} on ${network}.`);
  const remasc = tx.to === REMASC;
  const status = receipt ? (receipt.status === '0x1' ? 'Success' : 'Failed') : 'Pending';
  const gasPrice = receipt?.effectiveGasPrice ?? tx.gasPrice;
  const native = NATIVE[(tx.to ?? '').toLowerCase()];
  const logs = receipt?.logs ?? [];
  if (native) await loadNativeAbis().catch(() => undefined);
  const nativeCall = native ? decodeNativeCall(tx.to, tx.input) : undefined;
  const rows = [
    ['Hash', tx.hash, 'tx-hash'],
    ['Status', el('span', { class: `badge ${status === 'Success' ? 'ok' : 'bad'}`, id: 'tx-status' }, status)],
    ['Kind', remasc ? 'REMASC: the block reward and fee distribution every block ends with' : native ? `A call to the native contract ${native}` : tx.to ? 'Call or transfer' : 'Contract creation', 'tx-kind'],
    ['Block', tx.blockNumber ? blockLink(tx.blockNumber) : 'pending'],
    ['From', addressLink(tx.from)],
    ['To', tx.to ? addressLink(tx.to) : receipt?.contractAddress ? el('span', {}, 'created ', addressLink(receipt.contractAddress)) : '—'],
    ['Value', rbtc(tx.value), 'tx-value'],
    ['Nonce', dec(tx.nonce)],
    ['Gas limit', dec(tx.gas)],
    ['Gas used', receipt ? dec(receipt.gasUsed) : '—', 'tx-gas-used'],
    ['Gas price', `${dec(gasPrice)} wei`],
    ['Fee', receipt ? rbtc(BigInt(receipt.gasUsed) * BigInt(gasPrice)) : '—', 'tx-fee'],
    ['Input', el('pre', { class: 'mono wrap', id: 'tx-input' }, tx.input)],
  ];
  if (nativeCall) rows.push(['Native call', el('pre', { class: 'mono wrap', id: 'tx-native-call' }, nativeCall)]);
  const sections = [card(remasc ? 'REMASC transaction' : 'Transaction', facts(rows))];
  sections.push(el('section', { class: 'card' }, el('h2', {}, `Logs (${logs.length})`),
    logs.length === 0 ? el('p', { class: 'muted' }, 'No logs.') : el('ol', { id: 'tx-logs', class: 'logs' }, ...logs.map((log) => {
      const decoded = decodeLog(log);
      return el('li', {}, el('p', {}, 'Emitted by ', addressLink(log.address)),
        decoded ? el('p', { class: 'decoded' }, decoded) : null,
        el('pre', { class: 'mono wrap' }, ['topics:', ...log.topics, `data: ${log.data}`].join('\n')));
    }))));
  if (receipt && !remasc) {
    const tree = await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }]).catch((e) => e);
    sections.push(el('section', { class: 'card' }, el('h2', {}, 'Call tree'),
      tree instanceof Error ? el('p', { class: 'muted' }, tree.message) : el('ul', { id: 'call-tree', class: 'tree' }, callTree(tree))));
  }
  show(...sections);
}

// ---- address ----

async function address(account, before) {
  if (!/^0x[0-9a-fA-F]{40}$/.test(account)) return fail(`${account} is not an address.`);
  const [balance, nonce, code, creator, history] = await Promise.all([
    rpc('eth_getBalance', [account, 'latest']),
    rpc('eth_getTransactionCount', [account, 'latest']),
    rpc('eth_getCode', [account, 'latest']),
    rpc('ots_getContractCreator', [account]).catch(() => null),
    rpc('ots_searchTransactionsBefore', [account, Number(before), PAGE_SIZE]),
  ]);
  const name = NATIVE[account.toLowerCase()];
  const rows = [
    ['Address', account, 'address-hex'],
    ['Balance', rbtc(balance), 'address-balance'],
    ['Nonce', dec(nonce), 'address-nonce'],
    ['Code size', `${(code.length - 2) / 2} bytes`, 'address-code-size'],
  ];
  if (creator) rows.push(['Created by', el('span', {}, addressLink(creator.creator), ' in ', txLink(creator.hash)), 'address-creator']);
  const txs = history.txs;
  const older = txs.length > 0 && !history.lastPage ? BigInt(txs[txs.length - 1].blockNumber) : undefined;
  show(
    card(name ? `${name} (native contract)` : 'Address', facts(rows)),
    el('section', { class: 'card' }, el('h2', {}, 'Transactions, newest first'),
      txs.length === 0 ? el('p', { class: 'muted' }, 'No transactions.')
        : table('address-txs', ['Hash', 'Block', 'From', 'To', 'Value', 'Status'], txs.map((t, i) => [
          txLink(t.hash), blockLink(t.blockNumber), addressLink(t.from), addressLink(t.to ?? history.receipts[i].contractAddress), rbtc(t.value),
          history.receipts[i].status === '0x1' ? 'ok' : 'failed'])),
      el('p', { class: 'pager' },
        before !== 0n ? el('a', { href: href(`/address/${account}`), id: 'newest' }, 'Newest') : null,
        older !== undefined ? el('a', { href: `${href(`/address/${account}`)}${network === 'mainnet' ? '&' : '?'}before=${older}`, id: 'older' }, 'Older') : null)),
  );
}

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
  if (parts.length === 0) return home();
  if (parts.length === 2 && parts[0] === 'block') return block(parts[1]);
  if (parts.length === 2 && parts[0] === 'tx') return transaction(parts[1]);
  if (parts.length === 2 && parts[0] === 'address') {
    const before = params.get('before');
    return address(parts[1], before !== null && /^\d{1,20}$/.test(before) ? BigInt(before) : 0n);
  }
  return fail('There is no explorer page here.');
}

wireHeader();
route().catch((error) => fail(error.message));
