/*
 * The explorer's transaction page (/explorer/tx/<hash>): the transaction and its receipt, its logs
 * (token events decoded), a native contract call decoded from the node's ABI table, the call tree.
 */
'use strict';

(() => {
  const { network, REMASC, NATIVE, rpc, el, blockLink, addressLink, rbtc, dec, facts, card, show, fail, views } = window.Explorer;

  /** keccak256 of the event signatures decoded by topic. */
  const EVENTS = {
    '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef': 'Transfer',
    '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925': 'Approval',
    '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31': 'ApprovalForAll',
  };

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

  views.transaction = transaction;
})();
