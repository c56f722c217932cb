// console.log from a contract compiled by Hardhat: the node prints the lines (checked by
// test/integration/hardhat-console.test.ts from the node's output); here, what the user sees.
const { expect } = require('chai');
const { ethers } = require('hardhat');

describe('console.log on rsk-devnode', function () {
  it('mines a transaction that logs, and answers an eth_call that logs', async function () {
    const [signer] = await ethers.getSigners();
    const logging = await ethers.deployContract('ConsoleLogging');
    await logging.waitForDeployment();
    const tx = await logging.logEverything(signer.address);
    const receipt = await tx.wait();
    expect(receipt.status).to.equal(1);
    expect(await logging.viewLog(21n)).to.equal(42n);
    // Read by the vitest side to find the lines under this hash in the node's output.
    console.log(`LOGGED-TX ${receipt.hash} FROM ${signer.address.toLowerCase()}`);
  });
});
