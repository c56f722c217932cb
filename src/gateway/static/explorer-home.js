/*
 * The explorer's home page (/explorer): the latest blocks and transactions, live through the node's
 * newHeads subscription on the explorer's socket /explorer/ws/<network>, polled when the socket fails.
 */
'use strict';

(() => {
  const { network, REMASC, rpc, el, table, blockLink, txLink, addressLink, short, rbtc, when, show, views } = window.Explorer;

  /** How often the home page asks for a new head when the explorer's socket fails (no WebSocket on the way). */
  const POLL_MS = 2000;
  /** Blocks on the home page; their transactions fill the second list. */
  const LATEST_BLOCKS = 10;
  const LATEST_TXS = 10;

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

  views.home = home;
})();
