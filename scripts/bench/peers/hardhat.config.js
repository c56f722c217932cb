// `hardhat node` needs a project: the bench starts it here, with Hardhat's defaults (automine, chain 31337).
module.exports = { networks: { hardhat: {} } };
