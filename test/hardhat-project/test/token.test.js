// An ordinary Hardhat 2 test file (mocha + chai, hardhat-ethers, hardhat-chai-matchers,
// hardhat-network-helpers), run with `npx hardhat test --network devnode` against rsk-devnode.
const { expect } = require('chai');
const { ethers, network } = require('hardhat');
const {
  loadFixture,
  time,
  mine,
  setBalance,
  impersonateAccount,
} = require('@nomicfoundation/hardhat-network-helpers');

const SUPPLY = ethers.parseEther('1000000');

async function deployTokenFixture() {
  const [owner, other] = await ethers.getSigners();
  const token = await ethers.deployContract('Token', [SUPPLY]);
  await token.waitForDeployment();
  const reverter = await ethers.deployContract('Reverter');
  await reverter.waitForDeployment();
  return { token, reverter, owner, other };
}

describe('Token on rsk-devnode', function () {
  it('deploys in a fixture and mints the supply to the deployer', async function () {
    const { token, owner, other } = await loadFixture(deployTokenFixture);
    expect(await token.totalSupply()).to.equal(SUPPLY);
    expect(await token.balanceOf(owner.address)).to.equal(SUPPLY);
    expect(await token.balanceOf(other.address)).to.equal(0n);
  });

  it('sends legacy (type 0) transactions priced at eth_gasPrice', async function () {
    const { token, other } = await loadFixture(deployTokenFixture);
    const tx = await token.transfer(other.address, 1n);
    const receipt = await tx.wait();
    expect(receipt.status).to.equal(1);
    expect(tx.type).to.equal(0);
    expect(tx.maxFeePerGas).to.equal(null);
    expect(tx.gasPrice).to.equal(BigInt(await ethers.provider.send('eth_gasPrice', [])));
    expect(tx.chainId).to.equal(31n);
  });

  it('changes token balances and emits Transfer', async function () {
    const { token, owner, other } = await loadFixture(deployTokenFixture);
    const n = ethers.parseEther('250');
    await expect(token.transfer(other.address, n)).to.changeTokenBalances(token, [owner, other], [-n, n]);
    await expect(token.transfer(other.address, n))
      .to.emit(token, 'Transfer')
      .withArgs(owner.address, other.address, n);
    expect(await token.balanceOf(other.address)).to.equal(2n * n);
  });

  it('sees state reverted by the next loadFixture', async function () {
    const { token, owner, other } = await loadFixture(deployTokenFixture);
    // the previous tests transferred tokens; loadFixture reverted to the fixture's snapshot
    expect(await token.balanceOf(other.address)).to.equal(0n);
    expect(await token.balanceOf(owner.address)).to.equal(SUPPLY);
  });

  it('decodes revert reasons and custom errors', async function () {
    const { token, reverter, other } = await loadFixture(deployTokenFixture);
    await expect(token.connect(other).transfer(other.address, 1n)).to.be.revertedWith('insufficient balance');
    await expect(reverter.revertWithCustomError(7n))
      .to.be.revertedWithCustomError(reverter, 'Bad')
      .withArgs(7n);
    await expect(reverter.revertWithReason()).to.be.revertedWith('nope: reason string');
    await expect(reverter.increment()).not.to.be.reverted;
  });

  // hardhat-ethers on the `localhost` network (and a network with a `gas` setting) sends a fixed gas
  // limit: no eth_estimateGas fails first, so the send itself must answer with the revert.
  it('decodes reverts of transactions sent with a fixed gas limit', async function () {
    const { token, reverter, other } = await loadFixture(deployTokenFixture);
    const gasLimit = 200_000n;
    await expect(token.connect(other).transfer(other.address, 1n, { gasLimit })).to.be.revertedWith('insufficient balance');
    await expect(reverter.revertWithCustomError(7n, { gasLimit }))
      .to.be.revertedWithCustomError(reverter, 'Bad')
      .withArgs(7n);
    await expect(reverter.assertFail({ gasLimit })).to.be.revertedWithPanic(1);
  });

  it('changes ether balances (fees excluded)', async function () {
    const { owner, other } = await loadFixture(deployTokenFixture);
    const value = ethers.parseEther('1.5');
    await expect(owner.sendTransaction({ to: other.address, value })).to.changeEtherBalances(
      [owner, other],
      [-value, value],
    );
  });

  it('moves time with time.increase and reads it back with time.latest', async function () {
    await loadFixture(deployTokenFixture);
    const before = await time.latest();
    const after = await time.increase(3600);
    expect(after).to.equal(before + 3600);
    expect(await time.latest()).to.equal(before + 3600);
    const block = await ethers.provider.getBlock('latest');
    expect(block.timestamp).to.equal(before + 3600);
  });

  it('mines many blocks with mine(n)', async function () {
    await loadFixture(deployTokenFixture);
    const before = await ethers.provider.getBlockNumber();
    await mine(10);
    expect(await ethers.provider.getBlockNumber()).to.equal(before + 10);
    expect(await time.latestBlock()).to.equal(before + 10);
  });

  it('sets balances with setBalance', async function () {
    await loadFixture(deployTokenFixture);
    const address = ethers.Wallet.createRandom().address;
    await setBalance(address, 123456789n);
    expect(await ethers.provider.getBalance(address)).to.equal(123456789n);
    await setBalance(address, ethers.parseEther('42'));
    expect(await ethers.provider.getBalance(address)).to.equal(ethers.parseEther('42'));
  });

  it('sends transactions from an impersonated account', async function () {
    // With keys in the config, Hardhat signs every eth_sendTransaction itself and rejects an
    // address it has no key for (HH103) before the node sees it.
    if (Array.isArray(network.config.accounts)) this.skip();
    const { token, owner } = await loadFixture(deployTokenFixture);
    const whale = ethers.Wallet.createRandom().address;
    await token.transfer(whale, 1000n);
    await setBalance(whale, ethers.parseEther('10'));
    await impersonateAccount(whale);
    const signer = await ethers.getSigner(whale);
    await expect(token.connect(signer).transfer(owner.address, 400n)).to.changeTokenBalances(
      token,
      [signer, owner],
      [-400n, 400n],
    );
    const value = ethers.parseEther('1');
    await expect(signer.sendTransaction({ to: owner.address, value })).to.changeEtherBalances(
      [signer, owner],
      [-value, value],
    );
    expect(await token.balanceOf(whale)).to.equal(600n);
  });
});
