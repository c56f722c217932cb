/**
 * Methods the node knows and refuses, each with the reason a user reads. Unknown names answer
 * rskj's "method not found"; these keep rskj's "does not exist/is not available" wording (which
 * ethers reports as UNSUPPORTED_OPERATION) followed by why.
 */
import { MethodNotFound } from '../errors.js';
import type { MethodSpec } from '../types.js';
import type { RpcContext } from '../context.js';

const NO_FEE_MARKET = 'RSK has no EIP-1559 fee market (blocks carry no base fee and transactions no priority fee); use eth_gasPrice';
const NO_COMPILERS = 'not supported: no compilers are included in the node; compile with solc, Hardhat or Foundry';
const DB_DEPRECATED = 'deprecated: the db_ module was removed from Ethereum clients and RSK';
const NO_WHISPER = 'not supported: the Whisper (shh_) message protocol is not supported';

const REASONS: Record<string, string> = {
  eth_feeHistory: NO_FEE_MARKET,
  eth_maxPriorityFeePerGas: NO_FEE_MARKET,
  eth_blobBaseFee: `${NO_FEE_MARKET}; RSK has no blob transactions either`,
  eth_getCompilers: NO_COMPILERS,
  eth_compileLLL: NO_COMPILERS,
  eth_compileSolidity: NO_COMPILERS,
  eth_compileSerpent: NO_COMPILERS,
  ...Object.fromEntries(['db_putString', 'db_getString', 'db_putHex', 'db_getHex'].map((name) => [name, DB_DEPRECATED])),
  ...Object.fromEntries(
    ['shh_post', 'shh_version', 'shh_newIdentity', 'shh_hasIdentity', 'shh_newGroup', 'shh_addToGroup', 'shh_newFilter', 'shh_uninstallFilter', 'shh_getFilterChanges', 'shh_getMessages'].map(
      (name) => [name, NO_WHISPER],
    ),
  ),
};

/** Table entries that answer -32601 with their reason, whatever the params. */
export const unsupportedMethods: MethodSpec<RpcContext>[] = Object.entries(REASONS).map(([name, reason]) => ({
  name,
  doc: reason,
  unsupported: true,
  decode: (raw: unknown[]) => raw,
  handler: () => {
    throw new MethodNotFound(name, `the method ${name} does not exist/is not available: ${reason}`);
  },
}));
