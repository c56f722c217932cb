/** One JSON-RPC call over a fresh WebSocket (id 1, no params); resolves with the parsed answer. */
import WebSocket from 'ws';

export function wsCall(url: string, method: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] })));
    socket.on('message', (data) => {
      socket.close();
      resolve(JSON.parse(String(data)));
    });
  });
}
