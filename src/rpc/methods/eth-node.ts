/** eth_ methods about the node and network rather than chain data. */
import { type Address, bytesToHex, hashPersonalMessage } from '@ethereumjs/util';
import { MINER_ACCOUNT, sign, lockedHint } from '../../chain/index.js';
import { openKeystore, passphrase } from './personal.js';
import { method, type RpcContext } from '../context.js';
import { InvalidParams } from '../errors.js';
import { quantity } from '../format.js';
import { address, data, noParams, params } from '../params.js';

/** keccak256("\x19Ethereum Signed Message:\n" + len + message) signed with a node key: r‖s‖v, v 27/28. */
function signMessage(ctx: RpcContext, signer: Address, message: Uint8Array, opened?: Uint8Array): string {
  // rskj's eth_sign: only an unlocked key signs (Wallet.getAccount), else "Account not found".
  const privateKey = opened ?? ctx.chain.wallet.signingKey(signer.toString());
  if (privateKey === undefined) throw new InvalidParams(`Account not found${lockedHint(ctx.chain.wallet, signer.toString())}`);
  const signature = sign(hashPersonalMessage(message), privateKey);
  const out = new Uint8Array(65);
  out.set(signature.r, 0);
  out.set(signature.s, 32);
  out[64] = 27 + signature.recovery;
  return bytesToHex(out);
}

/** rskj's eth_protocolVersion: the highest "rsk" capability, 62. */
const PROTOCOL_VERSION = '0x3e';

export const ethNodeMethods = [
  method(
    'eth_chainId',
    'Chain id: 0x1e mainnet, 0x1f testnet.',
    noParams,
    (ctx) => quantity(ctx.chain.chainId),
  ),
  method(
    'eth_protocolVersion',
    'RSK protocol version (0x3e, as rskj).',
    noParams,
    () => PROTOCOL_VERSION,
  ),
  method(
    'eth_syncing',
    'Always false: a local node has nothing to sync.',
    noParams,
    () => false,
  ),
  method(
    'eth_coinbase',
    "The miner's address (rskj's regtest miner account).",
    noParams,
    () => MINER_ACCOUNT.address,
  ),
  method(
    'eth_mining',
    'Whether the node mines blocks itself: false with --miner external (rskj: its miner client runs).',
    noParams,
    (ctx) => ctx.chain.minerMode === 'internal',
  ),
  method(
    'eth_gasPrice',
    "The latest block's minimum gas price times 1.1 (rskj's rpc.gasPriceMultiplier).",
    noParams,
    (ctx) => quantity(ctx.chain.gasPrice()),
  ),
  method(
    'eth_accounts',
    "Addresses whose keys the node holds: rskj's ten dev accounts, the miner account, then personal_ accounts (locked ones too).",
    noParams,
    (ctx) => ctx.chain.accounts.map((a) => a.address),
  ),
  method(
    'eth_sign',
    'Signs keccak256("\\x19Ethereum Signed Message:\\n" + len + message) with a node key; returns r‖s‖v (v 27/28).',
    params([address, data.as('message')]),
    (ctx, [signer, message]) => signMessage(ctx, signer, message),
  ),
  method(
    'personal_sign',
    "eth_sign with geth's argument order (message, address), which ethers' and viem's signMessage call; with a third argument (web3.js), a keystore account's passphrase opens its key for this signature (geth).",
    params([data.as('message'), address, passphrase.optional]),
    async (ctx, [message, signer, pass]) =>
      signMessage(ctx, signer, message, pass === undefined ? undefined : await openKeystore(ctx, signer.toString(), pass)),
  ),
];
