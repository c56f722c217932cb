// The dashboard's shared client helpers, loaded first on every dashboard page (pages.ts): the API
// call, element builders, formatting and the usage chart that both app.js (the entry pages and the
// key list) and key-page.js (one key) use. They are published as one frozen namespace,
// window.Dashboard, because the pages load plain scripts (the CSP allows only same-origin files,
// and there is no bundler). Every value from the API goes into the page as text, never as HTML.
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

  window.Dashboard = Object.freeze({
    page,
    maxKeys,
    accountPage,
    api,
    el,
    showMessage,
    messageOf,
    formatTime,
    networkOf,
    networkBadge,
    statusBadge,
    confirmRevoke,
    renderChart,
  });
})();
