import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WARM_UP_DELAY_MS, warmUpWhenReady } from '../../src/server/warm-up.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listening(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => res.end('ok'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('warmUpWhenReady', () => {
  it('starts once, after the first response is sent, and not before', async () => {
    const { server, url } = await listening();
    const calls: string[] = [];
    server.on('request', () => calls.push('request'));
    // The fallback timer far off: on a loaded machine the first fetch can take longer than
    // WARM_UP_DELAY_MS, and the warm-up would then (rightly) start without a request.
    warmUpWhenReady(server, () => calls.push('warm-up'), 60_000);
    expect(await (await fetch(url)).text()).toBe('ok');
    expect(await (await fetch(url)).text()).toBe('ok');
    expect(calls).toEqual(['request', 'warm-up', 'request']);
  });

  it('starts after WARM_UP_DELAY_MS without a request', async () => {
    const { server } = await listening();
    let calls = 0;
    warmUpWhenReady(server, () => calls++);
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_DELAY_MS / 2));
    expect(calls).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_DELAY_MS));
    expect(calls).toBe(1);
  });

  it('never starts on a server closed first', async () => {
    const { server } = await listening();
    let calls = 0;
    warmUpWhenReady(server, () => calls++);
    await new Promise((resolve) => server.close(resolve));
    servers.splice(servers.indexOf(server), 1);
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_DELAY_MS + 50));
    expect(calls).toBe(0);
  });
});
