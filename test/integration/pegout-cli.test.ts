/**
 * The `--no-auto-pegout` CLI flag through the real CLI (as pegin.test.ts does `--no-auto-pegin`):
 * with it, a peg-out request stays queued however many blocks follow (the federators' steps are
 * the caller's); without it, the node's federation batches, signs and releases it on its own and
 * the BTC reaches the user's address. The federation's UTXO is a real Bitcoin payment to the
 * federation, recorded in the Bridge's storage (test/helpers/bridge-storage.ts).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { Address as BtcAddress, OutScript, p2pkh } from '@scure/btc-signer';
import { COW, call } from '../helpers/node.js';
import { runCli } from '../helpers/cli.js';
import { bridgeStorageOverRpc } from '../helpers/bridge-storage.js';
import { writeFederationUtxos } from '../../src/chain/native/bridge/utxos.js';
import { GENESIS_FEDERATION } from '../../src/chain/native/bridge/federation.js';

const require = createRequire(import.meta.url);
const bridgeAbi = require('@rsksmart/rsk-precompiled-abis').bridge.abi as never;
const BRIDGE = '0x0000000000000000000000000000000001000006';
const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
const WEI_PER_SAT = 10n ** 10n;
const REQUESTED_SAT = 1_000_000n;
/** More than the 3 RSK confirmations a batch waits for (rsk2BtcMinimumAcceptableConfirmations). */
const BLOCKS_AFTER_REQUEST = 5;

async function seedFederationUtxo(url: string, satoshis: number): Promise<void> {
  const txid: string = await call(url, 'btc_fund', [GENESIS_FEDERATION.address, satoshis]);
  await call(url, 'btc_mine', [1]);
  const coins: { txid: string; vout: number; amount: number; height: number }[] = await call(url, 'btc_listUnspent', [GENESIS_FEDERATION.address]);
  const coin = coins.find((c) => c.txid === txid)!;
  const script = OutScript.encode(BtcAddress(REGTEST).decode(GENESIS_FEDERATION.address));
  await writeFederationUtxos(bridgeStorageOverRpc(url), [
    { txid: hexToBytes(coin.txid), vout: coin.vout, value: BigInt(coin.amount), height: coin.height, script, redeemScript: GENESIS_FEDERATION.redeemScript },
  ]);
}

describe('--no-auto-pegout', () => {
  it('the CLI flag leaves a peg-out request queued; without it the node releases the BTC', async () => {
    const destination = p2pkh(secp256k1.getPublicKey(hexToBytes(COW.privateKey.slice(2)), true), REGTEST).address!;
    for (const [flags, released] of [[['--no-auto-pegout'], false], [[], true]] as const) {
      const cli = runCli(['--in-memory', '--port', '0', '--quiet', '--api-key', 'pegout-cli-key', ...flags], 1);
      let provider: JsonRpcProvider | undefined;
      try {
        await cli.started;
        const url = `${cli.baseUrl()}/pegout-cli-key`;
        provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
        await seedFederationUtxo(url, 5_000_000);
        const user = new Wallet(COW.privateKey, provider);
        const request = await (await user.sendTransaction({ to: BRIDGE, value: REQUESTED_SAT * WEI_PER_SAT })).wait();
        expect(request!.status).toBe(1);
        await call(url, 'evm_mine', [BLOCKS_AFTER_REQUEST]);

        const bridge = new Contract(BRIDGE, bridgeAbi, provider);
        const label = flags.join(' ') || '(no flag)';
        expect(await bridge.getQueuedPegoutsCount!(), label).toBe(released ? 0n : 1n);
        const coins: { amount: number }[] = await call(url, 'btc_listUnspent', [destination]);
        expect(coins.length, label).toBe(released ? 1 : 0);
        if (released) expect(BigInt(coins[0]!.amount)).toBeLessThan(REQUESTED_SAT); // less the recipient's fee share
      } finally {
        provider?.destroy();
        expect(await cli.stop()).toBe(0);
      }
    }
  });
});
