/**
 * Signatures with the node's keys: eth_sign / personal_sign (EIP-191 messages) and
 * eth_signTypedData_v4 (EIP-712, which ethers' JsonRpcSigner.signTypedData and viem's
 * signTypedData call; EIP-2612 permits are signed this way). eth_signTypedData and
 * eth_signTypedData_v3 answer as geth's eth_signTypedData does: the same v4 hashing, whose result
 * equals v3's for every input v3 accepts. Only an unlocked key signs (rskj's eth_sign); an
 * impersonated account has no key, so it cannot sign.
 */
import { type Address, bytesToHex, hashPersonalMessage } from '@ethereumjs/util';
import { sign, TypedDataError, typedDataHash, lockedHint } from '../../chain/index.js';
import { openKeystore, passphrase } from './personal.js';
import { method, type RpcContext } from '../context.js';
import { MAX_PARAMS_DEPTH, jsonTextDepth } from '../dispatcher.js';
import { InvalidParams } from '../errors.js';
import { ParamError, address, data, describe, makeDecoder, params } from '../params.js';

/** `hash` signed with `signer`'s key (or the key opened for this call): r‖s‖v, v 27/28. */
function signHash(ctx: RpcContext, signer: Address, hash: Uint8Array, opened?: Uint8Array): string {
  const account = signer.toString();
  // rskj's eth_sign: only an unlocked key signs (Wallet.getAccount), else "Account not found".
  const privateKey = opened ?? ctx.chain.wallet.signingKey(account);
  if (privateKey === undefined) {
    if (ctx.chain.isImpersonated(signer)) {
      throw new InvalidParams(`${account} is impersonated: the node can send transactions as it but holds no key to sign with`);
    }
    throw new InvalidParams(`Account not found${lockedHint(ctx.chain.wallet, account)}`);
  }
  const signature = sign(hash, privateKey);
  const out = new Uint8Array(65);
  out.set(signature.r, 0);
  out.set(signature.s, 32);
  out[64] = 27 + signature.recovery;
  return bytesToHex(out);
}

/** The typed data: a JSON string (ethers, viem, eth-sig-util) or the object itself (geth, Hardhat take both). */
const typedData = makeDecoder('typedData', (v) => {
  if (typeof v !== 'string') {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ParamError(`expected typed data (a JSON object or its string), got ${describe(v)}`);
    return v;
  }
  // The request's depth limit, applied to the JSON inside the string as well.
  if (jsonTextDepth(v) > MAX_PARAMS_DEPTH) throw new ParamError(`typed data nested more than ${MAX_PARAMS_DEPTH} levels deep`);
  try {
    return JSON.parse(v) as unknown;
  } catch {
    throw new ParamError('typed data is not valid JSON');
  }
});

function signTypedData(ctx: RpcContext, signer: Address, value: unknown): string {
  let hash: Uint8Array;
  try {
    hash = typedDataHash(value);
  } catch (err) {
    if (err instanceof TypedDataError) throw new InvalidParams(`invalid typed data: ${err.message}`);
    throw err;
  }
  return signHash(ctx, signer, hash);
}

const typedDataMethod = (name: string, doc: string) =>
  method(name, doc, params([address, typedData]), (ctx, [signer, value]) => signTypedData(ctx, signer, value));

export const signingMethods = [
  method(
    'eth_sign',
    'Signs keccak256("\\x19Ethereum Signed Message:\\n" + len + message) with a node key; returns r‖s‖v (v 27/28).',
    params([address, data.as('message')]),
    (ctx, [signer, message]) => signHash(ctx, signer, hashPersonalMessage(message)),
  ),
  method(
    'personal_sign',
    "eth_sign with geth's argument order (message, address), which ethers' and viem's signMessage call; with a third argument (web3.js), a keystore account's passphrase opens its key for this signature (geth).",
    params([data.as('message'), address, passphrase.optional]),
    async (ctx, [message, signer, pass]) =>
      signHash(ctx, signer, hashPersonalMessage(message), pass === undefined ? undefined : await openKeystore(ctx, signer.toString(), pass)),
  ),
  typedDataMethod('eth_signTypedData_v4', 'Signs EIP-712 typed data (address, then the JSON string or object) with a node key; returns r‖s‖v (v 27/28).'),
  typedDataMethod('eth_signTypedData_v3', 'eth_signTypedData_v4 (v3 inputs hash the same).'),
  typedDataMethod('eth_signTypedData', "geth's eth_signTypedData: eth_signTypedData_v4."),
];
