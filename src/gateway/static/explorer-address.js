/* The explorer's address page (/explorer/address/<address>[?before=<block>]): balance, nonce, code, creator, its transactions a page at a time. */
'use strict';

(() => {
  const { network, NATIVE, rpc, el, href, blockLink, txLink, addressLink, rbtc, dec, facts, table, card, show, fail, views } = window.Explorer;

  /** Transactions per address page (the address index answers whole blocks, at least this many). */
  const PAGE_SIZE = 25;

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

  views.address = address;
})();
