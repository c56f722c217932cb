// A plain Hardhat 2 project run against rsk-devnode (started with the hardhat profile) by
// test/integration/hardhat.test.ts. Nothing in it is specific to the devnode except the network
// entry and the offline compiler below.
require('@nomicfoundation/hardhat-chai-matchers');
require('@nomicfoundation/hardhat-ethers');
const { subtask } = require('hardhat/config');
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names');

const SOLC_VERSION = '0.8.30';

// Hardhat downloads its compilers from binaries.soliditylang.org, which this environment cannot
// reach. Answer the "get solc build" subtask with the solc-js (wasm) build from the `solc` npm
// package instead: Hardhat then runs it through its solcjs runner, fully offline.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }, _hre, runSuper) => {
  if (solcVersion !== SOLC_VERSION) return runSuper();
  const solc = require('solc');
  if (!solc.version().startsWith(`${solcVersion}+`)) {
    throw new Error(`npm package solc is ${solc.version()}, the config asks for ${solcVersion}`);
  }
  return {
    compilerPath: require.resolve('solc/soljson.js'),
    isSolcJs: true,
    version: solcVersion,
    longVersion: solc.version().replace(/\.Emscripten\.clang$/, ''),
  };
});

// rskj's regtest dev accounts: keccak256('cow') and keccak256('cow1').
const COW = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const COW1 = '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae';

const url = process.env.RSK_DEVNODE_URL ?? 'http://127.0.0.1:4444/';

/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  solidity: {
    version: SOLC_VERSION,
    settings: { evmVersion: 'cancun', optimizer: { enabled: false } },
  },
  networks: {
    // The node's own accounts (eth_accounts: cow, cow1, ... as rskj regtest), the way a project
    // talks to `npx hardhat node`: Hardhat forwards eth_sendTransaction to the node, which signs
    // for its accounts and for impersonated ones.
    devnode: {
      url,
      chainId: 31,
      accounts: 'remote',
    },
    // The same node with the keys held by Hardhat: Hardhat signs every transaction itself and
    // sends eth_sendRawTransaction. Hardhat then refuses eth_sendTransaction from any address it
    // has no key for (HH103), so impersonated accounts cannot send on this network (a Hardhat
    // rule, whatever the node); the impersonation test skips itself here.
    devnodeKeys: {
      url,
      chainId: 31,
      accounts: [COW, COW1],
    },
    // gasPrice is left 'auto' on both: Hardhat reads the latest block, finds no baseFeePerGas
    // (RSK has none) and sends a legacy (type 0) transaction priced at eth_gasPrice.
  },
  mocha: { timeout: 60_000 },
};
