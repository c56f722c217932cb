// The dashboard's client script for the header, sign up, log in and the key list with its usage
// (one key's page is key-page.js). The helpers come from dashboard-shared.js, loaded before it.
// Every value from the API goes into the page as text (textContent, value, attributes), never as HTML.
'use strict';

(() => {
  const { page, maxKeys, accountPage, api, el, showMessage, messageOf, formatTime, networkBadge, statusBadge, confirmRevoke, renderChart } =
    window.Dashboard;

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

  if (accountPage) setUpAccountHeader();
  if (page === 'signup' || page === 'login') setUpAuthForm(page);
  else if (page === 'keys') setUpKeysPage();
})();
