/** The in-process provider's EIP-1193 `message` events: eth_subscribe works without HTTP. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNode, type DevNode } from '../../src/index.js';

let node: DevNode;
beforeAll(async () => (node = await createNode()));
afterAll(() => node.close());

it('pushes newHeads as EIP-1193 message events, and stops after eth_unsubscribe', async () => {
  const messages: Array<{ type: string; data: { subscription: string; result: { number: string } } }> = [];
  node.provider.on('message', (message) => messages.push(message));
  const id = (await node.provider.request({ method: 'eth_subscribe', params: ['newHeads'] })) as string;
  await node.provider.request({ method: 'evm_mine' });
  await node.provider.request({ method: 'evm_mine' });
  expect(messages.map((m) => [m.type, m.data.subscription, m.data.result.number])).toEqual([
    ['eth_subscription', id, '0x1'],
    ['eth_subscription', id, '0x2'],
  ]);
  expect(await node.provider.request({ method: 'eth_unsubscribe', params: [id] })).toBe(true);
  await node.provider.request({ method: 'evm_mine' });
  expect(messages).toHaveLength(2);
});
