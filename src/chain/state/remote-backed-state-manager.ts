/**
 * The state manager of a fork: the miner's (tracking-state-manager.ts) with one difference, what
 * the local trie does not hold is read from the remote state source (fork/remote-state.ts) at the
 * fork block. Local writes go to the local trie as on any chain; the remote is only ever read.
 * - An account absent from the trie is the remote's, with REMOTE_STORAGE_ROOT (tombstone-trie.ts);
 *   an account deleted locally is a tombstone, and stays deleted.
 * - A contract whose code is not in the local code store has the remote's code (its code hash is
 *   the remote code's hash: the account came from there).
 * - A slot absent from a storage trie holding the remote marker is the remote's; a slot written
 *   locally, zero included (a tombstone), is local. Storage cleared or created locally has no marker.
 * RSK's native contracts (the Bridge, REMASC, ...) are never read from the remote: they stay native,
 * with the local state they build (rskj's Bridge storage cannot be read slot by slot over RPC).
 */
import { RLP } from '@ethereumjs/rlp';
import { Account, type Address, EthereumJSErrorWithoutCode, KECCAK256_NULL, bytesToBigInt, createAccountFromRLP, unpadBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/hash.js';
import type { RemoteStateSource } from '../fork/remote-state.js';
import { ChangeTrackingStateManager } from './tracking-state-manager.js';
import { type TombstoneTrie, isTombstone, remoteStorageRoot } from './tombstone-trie.js';

/** RSK's native contracts sit at 0x00…01000000 to 0x00…010000ff (rskj's PrecompiledContracts). */
function isNativeContract(address: Address): boolean {
  const bytes = address.bytes;
  for (let i = 0; i < 16; i++) if (bytes[i] !== 0) return false;
  return bytes[16] === 1 && bytes[17] === 0 && bytes[18] === 0;
}

const EMPTY = new Uint8Array(0);
const RLP_EMPTY = Uint8Array.of(0x80);

export class RemoteBackedStateManager extends ChangeTrackingStateManager {
  private readonly remote: RemoteStateSource;
  private readonly remoteRoot = remoteStorageRoot();

  constructor(opts: ConstructorParameters<typeof ChangeTrackingStateManager>[0], remote: RemoteStateSource) {
    super(opts);
    this.remote = remote;
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const elem = this._caches?.account?.get(address);
    if (elem !== undefined) return elem.accountRLP !== undefined ? createAccountFromRLP(elem.accountRLP) : undefined;
    const rlp = await this._trie.get(address.bytes);
    let account: Account | undefined;
    if (rlp !== null) account = isTombstone(rlp) ? undefined : createAccountFromRLP(rlp);
    else if (!isNativeContract(address)) {
      const remote = await this.remote.account(address.bytes);
      if (remote !== undefined) account = new Account(remote.nonce, remote.balance, this.remoteRoot, remote.code.length === 0 ? KECCAK256_NULL : keccak256(remote.code));
    }
    this._caches?.account?.put(address, account);
    return account;
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const code = await super.getCode(address);
    if (code.length > 0) return code;
    const account = await this.getAccount(address);
    if (account === undefined || !account.isContract()) return code;
    const remote = await this.remote.account(address.bytes);
    const remoteCode = remote?.code ?? EMPTY;
    this._caches?.code?.put(address, remoteCode);
    return remoteCode;
  }

  /** MerkleStateManager.getStorage, with the remote's value for a slot of remote storage never written locally. */
  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    const cached = this._caches?.storage?.get(address, key);
    if (cached !== undefined) return shortest(RLP.decode(cached) as Uint8Array);
    const account = await this.getAccount(address);
    if (account === undefined) return new Uint8Array();
    const trie = this._getStorageTrie(address, account) as TombstoneTrie;
    let encoded = await trie.get(key);
    if (encoded === null && !isNativeContract(address) && (await trie.hasRemoteStorage())) {
      encoded = RLP.encode(unpadBytes(await this.remote.storage(address.bytes, key)));
    }
    this._caches?.storage?.put(address, key, encoded ?? RLP_EMPTY);
    return shortest(RLP.decode(encoded ?? EMPTY) as Uint8Array);
  }
}

/** A stored value in its shortest form: a tombstone (a one-byte zero) reads as the empty zero. */
function shortest(value: Uint8Array): Uint8Array {
  return value.length === 1 && bytesToBigInt(value) === 0n ? new Uint8Array() : value;
}
