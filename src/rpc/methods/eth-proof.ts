/**
 * eth_getProof (EIP-1186): account and storage proofs against a block's state root. rskj has no
 * eth_getProof (reference 10.1); the spec lists it with its result object, so we serve it as geth
 * does, with the spec's formats (`key` and `value` are QUANTITY).
 */
import { bytesToHex } from '@ethereumjs/util';
import { accountProof } from '../../chain/index.js';
import { method } from '../context.js';
import { quantity } from '../format.js';
import { ParamError, address, blockSelector, describe, makeDecoder, params, storageSlot } from '../params.js';
import { stateTarget } from '../resolve.js';
import { ErrorCode, RpcError } from '../errors.js';

/** Storage keys per eth_getProof call: each walks the storage trie, so one request's work stays bounded. */
export const MAX_PROOF_STORAGE_KEYS = 1_000;

/**
 * The storage keys: an array of 32-byte DATA as the spec says, or shorter QUANTITY-style hex as
 * geth also accepts (leading zeros allowed, up to 32 bytes), like eth_getStorageAt's position.
 */
const storageKeys = makeDecoder('storageKeys', (v) => {
  if (!Array.isArray(v)) throw new ParamError(`expected an array of storage keys, got ${describe(v)}`);
  if (v.length > MAX_PROOF_STORAGE_KEYS) {
    throw new ParamError(`${v.length} storage keys, at most ${MAX_PROOF_STORAGE_KEYS} per call`);
  }
  return v.map((key, i) => {
    try {
      return storageSlot.parse(key);
    } catch (err) {
      if (err instanceof ParamError) throw new ParamError(`storage key ${i}: ${err.message}`);
      throw err;
    }
  });
});

export const ethProofMethods = [
  method(
    'eth_getProof',
    "EIP-1186 proof of an account and storage slots at a block: nodes from the block's state root; proofs of absence for accounts and slots never written.",
    params([address, storageKeys, blockSelector]),
    async (ctx, [account, slots, block]) => {
      // A fork holds in its trie only what changed locally: a proof would deny the remote's accounts.
      if (ctx.chain.fork !== undefined) {
        throw new RpcError(ErrorCode.Server, "eth_getProof is not available on a fork: the remote's accounts are read on demand, not held in the local state trie (and rskj has no eth_getProof to ask)");
      }
      // The state reads see: the head's root may be overridden by hardhat_setBalance and friends
      // until the next block, the pending block's state lives in its overlay.
      const target = await stateTarget(ctx.chain, block);
      const proof = await accountProof(ctx.chain.stateAt(target.header.stateRoot, target.db), account, slots);
      return {
        address: account.toString(),
        accountProof: proof.accountProof.map((node) => bytesToHex(node)),
        balance: quantity(proof.balance),
        codeHash: bytesToHex(proof.codeHash),
        nonce: quantity(proof.nonce),
        storageHash: bytesToHex(proof.storageHash),
        storageProof: proof.storageProof.map((item) => ({
          key: quantity(item.slot),
          value: quantity(item.value),
          proof: item.proof.map((node) => bytesToHex(node)),
        })),
      };
    },
  ),
];
