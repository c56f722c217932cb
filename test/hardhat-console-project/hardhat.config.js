// A Hardhat 2 project whose contracts use `import "hardhat/console.sol"`, run against rsk-devnode
// by test/integration/hardhat-console.test.ts. Its own directory (artifacts, cache) so that it can
// run beside test/hardhat-project; the configuration (networks, offline solc-js) is that project's.
module.exports = require('../hardhat-project/hardhat.config.js');
