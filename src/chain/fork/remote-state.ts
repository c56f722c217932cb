/**
 * The remote state source: what a fork reads from the remote node at the fork block, the one seam
 * between the state layer above (state/remote-backed-state-manager.ts) and the network below.
 *
 * rskj has no eth_getProof, so an account is read field by field: eth_getBalance,
 * eth_getTransactionCount and eth_getCode of it go out together in one JSON-RPC batch (reads
 * made in the same turn of the event loop share batches of at most 50 calls, an account never
 * split), a slot is one eth_getStorageAt. Every read names the fork block by number (rskj refuses
 * the EIP-1898 object with a boolean, foundry#16769); identical reads in flight are merged; every
 * answer goes to the fork cache before it is used, and a cached answer is never asked again.
 * Offline, a read the cache lacks fails with RemoteError.
 */
import { bytesToHex, concatBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { type CachedMethodName, ForkCache, numberKey } from './cache.js';
import { MAX_REMOTE_BATCH, RemoteClient, RemoteError, type RpcCall } from './remote-client.js';

/** An account as the remote has it at the fork block. */
export interface RemoteAccount {
  nonce: bigint;
  balance: bigint;
  code: Uint8Array;
}

/** What the state layer reads from the remote for state the local trie does not hold. */
export interface RemoteStateSource {
  /** The block the remote is read at. */
  readonly forkBlock: bigint;
  /** The account at the fork block; undefined when it has no balance, nonce or code there. */
  account(address: Uint8Array): Promise<RemoteAccount | undefined>;
  /** A storage slot's 32-byte value at the fork block. */
  storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>;
  /** A native contract's read method as the remote answers it at `block` (at most the fork block). */
  callAt(block: bigint, to: Uint8Array, data: Uint8Array): Promise<RemoteCallAnswer>;
}

/**
 * The remote's answer to an eth_call of a native contract's read method: its return data, empty
 * when the method failed there (rskj and rsk-devnode answer a Bridge getter that throws with "0x").
 */
export interface RemoteCallAnswer {
  returnData: Uint8Array;
}

/** A remote JSON-RPC object (block, transaction, receipt) exactly as the remote answered it. */
export type RemoteJson = Record<string, unknown>;

/** An eth_getLogs filter over blocks up to the fork block (storage/log-index.ts's LogCriteria has this shape). */
export interface RemoteLogFilter {
  fromBlock: bigint;
  toBlock: bigint;
  addresses: Uint8Array[] | undefined;
  topics: (Uint8Array[] | null)[];
}

/** The filter as cache key material: both bounds, then each address list and topic position with its length. */
function logFilterKey(filter: RemoteLogFilter): Uint8Array {
  const parts: Uint8Array[] = [numberKey(filter.fromBlock), numberKey(filter.toBlock)];
  const list = (items: Uint8Array[] | null | undefined) => {
    parts.push(numberKey(items === null || items === undefined ? 0xffffn : BigInt(items.length)));
    parts.push(...(items ?? []));
  };
  list(filter.addresses);
  filter.topics.forEach(list);
  return concatBytes(...parts);
}

/** The cache key material of a block read by number. */
const blockKey = (number: bigint, full: boolean) => concatBytes(numberKey(number), Uint8Array.of(full ? 1 : 0));

const ACCOUNT_METHODS = ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'] as const;

interface Job {
  calls: RpcCall[];
  resolve(results: unknown[]): void;
  reject(err: unknown): void;
}

function quantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) throw new RemoteError(`fork: the remote answered ${what} with ${JSON.stringify(value)}, not a quantity`);
  return BigInt(value);
}

function data(value: unknown, what: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new RemoteError(`fork: the remote answered ${what} with ${JSON.stringify(value)}, not hex data`);
  return hexToBytes(value as `0x${string}`);
}

export class RemoteState implements RemoteStateSource {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private queue: Job[] = [];
  private readonly blockTag: string;

  constructor(
    /** undefined: offline, the cache alone answers. */
    private readonly client: RemoteClient | undefined,
    private readonly cache: ForkCache,
    readonly forkBlock: bigint,
  ) {
    this.blockTag = `0x${forkBlock.toString(16)}`;
  }

  /**
   * The remote's state at an earlier block, for reads at blocks below the fork block: the same
   * client (and request count), cached under that block.
   */
  at(block: bigint): RemoteState {
    return new RemoteState(this.client, this.cache.at(block), block);
  }

  /** HTTP requests sent to the remote so far. */
  get requests(): number {
    return this.client?.requests ?? 0;
  }

  async account(address: Uint8Array): Promise<RemoteAccount | undefined> {
    const hex = bytesToHex(address);
    const [balance, nonce, code] = await this.reads(
      ACCOUNT_METHODS.map((method) => ({ method, key: address, params: [hex, this.blockTag] })),
    );
    const account = {
      balance: quantity(balance, `eth_getBalance(${hex})`),
      nonce: quantity(nonce, `eth_getTransactionCount(${hex})`),
      code: data(code, `eth_getCode(${hex})`),
    };
    return account.balance === 0n && account.nonce === 0n && account.code.length === 0 ? undefined : account;
  }

  async storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const params = [bytesToHex(address), bytesToHex(slot), this.blockTag];
    const [value] = await this.reads([{ method: 'eth_getStorageAt', key: new Uint8Array([...address, ...slot]), params }]);
    const bytes = data(value, `eth_getStorageAt(${params[0]}, ${params[1]})`);
    if (bytes.length > 32) throw new RemoteError(`fork: the remote answered eth_getStorageAt(${params[0]}, ${params[1]}) with ${bytes.length} bytes`);
    return setLengthLeft(bytes, 32);
  }

  /**
   * The remote's answer to `data` sent to `to` with eth_call at `block` (at most the fork block),
   * cached like every read. Only native contracts' read methods go here (native/bridge/index.ts):
   * RSK's Bridge keeps values no eth_getStorageAt can return, so its getters are asked instead.
   */
  async callAt(block: bigint, to: Uint8Array, callData: Uint8Array): Promise<RemoteCallAnswer> {
    if (block > this.forkBlock) throw new RangeError(`fork: remote calls are made at the fork block or below, not at ${block}`);
    if (block < this.forkBlock) return this.at(block).callAt(block, to, callData);
    const target = bytesToHex(to);
    const params = [{ to: target, data: bytesToHex(callData) }, this.blockTag];
    const [answer] = await this.reads([{ method: 'eth_call', key: concatBytes(to, callData), params }]);
    return { returnData: data(answer, `eth_call(${target})`) };
  }

  /** Files the fork block's header as the remote gave it at start-up (read before the cache's scope was known). */
  async rememberForkBlock(block: RemoteJson): Promise<void> {
    await this.cache.put('eth_getBlockByNumber', blockKey(this.forkBlock, false), block);
  }

  /** A block at or below the fork block by number, as the remote answers it (null: none). */
  async blockByNumber(number: bigint, full: boolean): Promise<RemoteJson | null> {
    if (number > this.forkBlock) return null;
    const key = blockKey(number, full);
    const [block] = await this.reads([{ method: 'eth_getBlockByNumber', key, params: [`0x${number.toString(16)}`, full] }]);
    return (block as RemoteJson | null) ?? null;
  }

  /** A block by hash if it is the remote's at or below the fork block (null: none). */
  async blockByHash(hash: Uint8Array, full: boolean): Promise<RemoteJson | null> {
    const key = new Uint8Array([...hash, full ? 1 : 0]);
    const [block] = await this.reads([{ method: 'eth_getBlockByHash', key, params: [bytesToHex(hash), full] }]);
    return this.atOrBelowFork(block as RemoteJson | null);
  }

  /** A transaction mined at or below the fork block (null: none). */
  async transaction(hash: Uint8Array): Promise<RemoteJson | null> {
    const [tx] = await this.reads([{ method: 'eth_getTransactionByHash', key: hash, params: [bytesToHex(hash)] }]);
    return this.atOrBelowFork(tx as RemoteJson | null);
  }

  /** A receipt of a transaction mined at or below the fork block (null: none). */
  async receipt(hash: Uint8Array): Promise<RemoteJson | null> {
    const [receipt] = await this.reads([{ method: 'eth_getTransactionReceipt', key: hash, params: [bytesToHex(hash)] }]);
    return this.atOrBelowFork(receipt as RemoteJson | null);
  }

  /** The remote's logs matching `filter`, whose range must end at or below the fork block. */
  async logs(filter: RemoteLogFilter): Promise<RemoteJson[]> {
    if (filter.toBlock > this.forkBlock) throw new RangeError('fork: remote logs are read up to the fork block only');
    const params = {
      fromBlock: `0x${filter.fromBlock.toString(16)}`,
      toBlock: `0x${filter.toBlock.toString(16)}`,
      ...(filter.addresses === undefined ? {} : { address: filter.addresses.map((a) => bytesToHex(a)) }),
      topics: filter.topics.map((position) => (position === null ? null : position.map((t) => bytesToHex(t)))),
    };
    const [logs] = await this.reads([{ method: 'eth_getLogs', key: logFilterKey(filter), params: [params] }]);
    if (!Array.isArray(logs)) throw new RemoteError(`fork: the remote answered eth_getLogs with ${JSON.stringify(logs)?.slice(0, 200)}`);
    return logs as RemoteJson[];
  }

  /** What the remote has above the fork block is not the fork's history. */
  private atOrBelowFork(value: RemoteJson | null): RemoteJson | null {
    if (value === null || typeof value !== 'object') return null;
    const number = value.blockNumber ?? value.number;
    return typeof number === 'string' && BigInt(number) <= this.forkBlock ? value : null;
  }

  /**
   * The answers to `reads`: from the cache, else from the remote (a read already in flight is
   * joined, not sent again), each stored in the cache as it arrives.
   */
  private async reads(reads: Array<{ method: CachedMethodName; key: Uint8Array; params: unknown[] }>): Promise<unknown[]> {
    const id = (read: (typeof reads)[number]) => `${read.method}:${bytesToHex(read.key)}`;
    const joined = reads.map((read) => this.inFlight.get(id(read)));
    if (joined.every((p) => p !== undefined)) return Promise.all(joined);
    const fetched = (async () => {
      const cached = await Promise.all(reads.map((read) => this.cache.get(read.method, read.key)));
      const missing = reads.filter((_, i) => cached[i] === undefined);
      if (missing.length === 0) return cached;
      if (this.client === undefined) {
        const read = missing[0]!;
        throw new RemoteError(`fork offline: ${read.method}(${read.params.map((p) => JSON.stringify(p)).join(', ')}) is not in the fork cache (start without --fork-offline to read it from the remote)`);
      }
      const answers = await this.enqueue(missing.map(({ method, params }) => ({ method, params })));
      // A block number the remote does not have yet may come later: only its answer is not kept.
      await Promise.all(missing.map((read, i) => (read.method === 'eth_getBlockByNumber' && answers[i] === null ? undefined : this.cache.put(read.method, read.key, answers[i]))));
      let next = 0;
      return cached.map((value) => (value === undefined ? answers[next++] : value));
    })();
    const all = fetched.finally(() => reads.forEach((read) => this.inFlight.delete(id(read))));
    reads.forEach((read, i) => {
      const one = all.then((answers) => (answers as unknown[])[i]);
      one.catch(() => undefined); // the caller below sees the failure; joiners see it through `one`
      this.inFlight.set(id(read), one);
    });
    return (await all) as unknown[];
  }

  /** Queues calls for the next batch, sent once this turn of the event loop has queued its reads. */
  private enqueue(calls: RpcCall[]): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ calls, resolve, reject });
    });
  }

  /** Sends the queued jobs in batches of at most MAX_REMOTE_BATCH calls, no job split. */
  private flush(): void {
    const jobs = this.queue;
    this.queue = [];
    let batch: Job[] = [];
    let size = 0;
    const send = (group: Job[]) => {
      this.client!.batch(group.flatMap((job) => job.calls)).then(
        (results) => {
          let at = 0;
          for (const job of group) {
            job.resolve(results.slice(at, at + job.calls.length));
            at += job.calls.length;
          }
        },
        (err) => group.forEach((job) => job.reject(err)),
      );
    };
    for (const job of jobs) {
      if (size + job.calls.length > MAX_REMOTE_BATCH && batch.length > 0) {
        send(batch);
        batch = [];
        size = 0;
      }
      batch.push(job);
      size += job.calls.length;
    }
    if (batch.length > 0) send(batch);
  }
}
