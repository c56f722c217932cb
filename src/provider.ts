/**
 * An EIP-1193 provider over the dispatcher, for in-process use without HTTP: ethers'
 * BrowserProvider and viem's `custom` transport take it as they take a wallet's provider.
 */
import { EventEmitter } from 'node:events';
import type { JsonRpcResponse } from './rpc/types.js';
import { resultValue } from './rpc/raw-json.js';

export interface RequestArguments {
  method: string;
  params?: readonly unknown[] | object;
}

/** EIP-1193's error: the JSON-RPC error's code, message and data. */
export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProviderRpcError';
  }
}

/** EIP-1193's "Disconnected": the provider reaches no chain. */
export const DISCONNECTED = 4900;

export type Dispatch = (request: { jsonrpc: '2.0'; id: number; method: string; params: unknown }) => Promise<JsonRpcResponse>;

export class Eip1193Provider extends EventEmitter {
  private nextId = 1;
  private closedReason: string | undefined;

  constructor(
    private readonly dispatch: Dispatch,
    chainId: string,
  ) {
    super();
    // EIP-1193's `connect`: an in-process provider is connected from the start, so every listener
    // is told so as soon as it attaches, whenever that is.
    this.on('newListener', (event: string | symbol, listener: (info: { chainId: string }) => void) => {
      if (event === 'connect') queueMicrotask(() => listener({ chainId }));
    });
  }

  /**
   * The node closed under this provider: from now on every request rejects with 4900 (a closed
   * node would otherwise still answer from memory), and `disconnect` listeners are told once.
   */
  disconnect(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    this.emit('disconnect', new ProviderRpcError(DISCONNECTED, reason));
  }

  async request({ method, params }: RequestArguments): Promise<unknown> {
    if (this.closedReason !== undefined) throw new ProviderRpcError(DISCONNECTED, this.closedReason);
    const response = await this.dispatch({ jsonrpc: '2.0', id: this.nextId++, method, params: params ?? [] });
    if ('error' in response) throw new ProviderRpcError(response.error.code, response.error.message, response.error.data);
    return resultValue(response.result);
  }
}
