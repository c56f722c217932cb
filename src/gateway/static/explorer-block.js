/* The explorer's block page (/explorer/block/<number|hash>): the header's fields, the Bitcoin merged-mining proof, the transactions. */
'use strict';

(() => {
  const { network, REMASC, rpc, el, link, txLink, addressLink, rbtc, dec, when, facts, table, card, show, fail, views } = window.Explorer;

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

  views.block = block;
})();
