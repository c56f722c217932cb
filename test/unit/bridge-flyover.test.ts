/**
 * The derivation hash against rskj's PegUtilsTest getFlyoverDerivationHash_returnsExpectedDerivationHash,
 * and the flyover federation's redeem script and address against rskj's own vector
 * (rskj-core/src/test/java/co/rsk/peg/PegUtilsTest.java getFlyoverValues_fromRealSegwitFedTx_shouldReturnSameValues,
 * a P2SH-P2WSH ERP federation of 20 members and 20 ERP keys, from mainnet transaction
 * a4d76b6211b078cbc1d2079002437fcf018cc85cd40dd6195bb0f6b42930b96b), and the Bitcoin verifier's
 * reading of a flyover redeem script as the federation's.
 */
import { describe, expect, it } from 'vitest';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { GENESIS_FEDERATION, flyoverRedeemScript, isFederationRedeemScript, p2shP2wshAddress } from '../../src/chain/native/bridge/federation.js';
import { flyoverDerivationHash, flyoverOutputScript } from '../../src/chain/native/bridge/flyover.js';

/** rskj's expectedFlyoverRedeemScript: 0x20 <derivation hash 0x01 00..00> OP_DROP <the federation's redeem script>. */
const EXPECTED_FLYOVER_REDEEM_SCRIPT = hexToBytes([
  '20010000000000000000000000000000000000000000000000000000000000000075645b210211310637a4062844098b',
  '46278059298cc948e1ff314ca9ec75c82e0d0b8ad22c210238de69e208565fd82e4b76c4eff5d817a51679b8a90c4170',
  '9e49660ba23501c521024b120731b26ec7165cddd214fc8e3f0c844a03dc0e533fb0cf9f89ad2f68a881210274564db7',
  '6110474ac0d7e09080c182855b22a864cc201ed55217b23301f52f222102867f0e693a2553bf2bc13a5efa0b516b28e6',
  '6317fbe8e484dd3f375bcb48ec592102881af2910c909f224557353dd28e3729363cf5c24232f26d25c92dac72a3dcdb',
  '21029c75b3257e0842c4be48e57e39bf2735c74a76c4b1c0b08d1cc66bf5b8748cc12102a46cbe93287cb51a398a157d',
  'e2b428f21a94f46affdd916ce921bd10db6520332102d335ef4eeb74330c3a53f529f9741fa096412c7982ed681fcf69',
  '763894f34f892102d3f5fd6e107cf68b1be8dce0e16a0a8afb8dcef9a76c851d7eaf6d51c46a35752103163b86a62b4e',
  'eeb52f67cb16ce13a8622a066f2a063280749b956a97705dfc3d21033267e382e076cbaa199d49ea7362535f95b135de',
  '181caf66b391f541bf39ab0e210343e106d90183e2eef7d5cb7538a634439bf1301d731787c6736922ff19e750ed2103',
  '4461d4263b907cfc5ebb468f19d6a133b567f3cc4855e8725faaf60c6e388bca21036e92e6555d2e70af4f5a4f888145',
  '356e60bb1a5bc00786a8e9f50152090b2f692103ab54da6b69407dcaaa85f6904687052c93f1f9dd0633f1321b3e624f',
  'cd30144b2103bd5b51b1c5d799da190285c8078a2712b8e5dc6f73c799751e6256bb89a4bd042103be060191c9632184',
  'f2a0ab2638eeed04399372f37fc7a3cff5291cfd6426cf352103e6def9ef0597336eb58d24f955b6b63756cf7b388532',
  '2f9d0cf5a2a12f7e459b2103ef03253b7b4f33d68c39141eb016df15fafbb1d0fa4a2e7f208c94ea154ab8c30114ae67',
  '011eb2755b21021a560245f78312588f600315d75d493420bed65873b63d0d4bb8ca1b9163a35b2102218e9dc07ac419',
  '0a1d7df94fc75953b36671129f12668a94f1f504fe47399ead210272ed6e14e70f6b4757d412729730837bc63b631327',
  '6be8308a5a96afd63af9942102872f69892a74d60f6185c2908414dcddb24951c035a1a8466c6c56f55043e760210288',
  '6d7d8e865f75dfda3ddf94619af87ad8aa71e8ef393e1e57593576b7d7af1621028e59462fb53ba31186a353b7ea77eb',
  'efda9097392e45b7ca7a216168230d05af21028f5a88b08d75765b36951254e68060759de5be7e559972c37c67fc8ced',
  'afeb262102c9ced4bbc468af9ace1645df2fd50182d5822cb4c68aae0e50ae1d45da260d2a2102deba35a96add157b6d',
  'e58f48bb6e23bcb0a17037bed1beb8ba98de6b0a0d71d62102f2e00fefa5868e2c56405e188ec1d97557a7c77fb6a448',
  '352cc091c2ae9d50492102fb8c06c723d4e59792e36e6226087fcfac65c1d8a0d5c5726a64102a551528442103077c62',
  'a45ea1a679e54c9f7ad800d8e40eaf6012657c8dccd3b61d5e070d9a432103616959a72dd302043e9db2dbd7827944ec',
  'b2d555a8f72a48bb8f916ec5aac6ec210362f9c79cd0586704d6a9ea863573f3b123d90a31faaa5a1d9a69bf9631c78a',
  'e321036899d94ad9d3f24152dd4fa79b9cb8dddbd26d18297be4facb295f57c9de60bd210376e4cb35baa8c46b0dcffa',
  'f303785c5f7aadf457df30ac956234cc8114e2f47d2103a587256beec4e167aebc478e1d6502bb277a596ae9574ccb64',
  '6da11fffbf36502103bb9da162c3f581ced93167f86d7e0e5962762a1188f5bd1f8b5d08fed46ef73d2103c34fcd05ce',
  'f2733ea7337c37f50ae26245646aba124948c6ff8dcdf8212849982103f8ac768e683a07ac4063f72a6d856aedeae109',
  'f844abcfa34ac9519d715177460114ae68',
].join(''));
const DERIVATION_HASH = hexToBytes('01' + '00'.repeat(31));
/** bitcoinj MainNetParams p2shHeader. */
const MAINNET_P2SH_VERSION = 5;

/**
 * BitcoinTestUtils.createP2PKHAddress(mainnet, seed) serialized with its version (RSKIP284): the
 * key is keccak256(seed) (compressed), the mainnet P2PKH version 0 is one byte.
 */
function versionedMainnetP2pkh(seed: string): Uint8Array {
  const pub = secp256k1.getPublicKey(keccak_256(new TextEncoder().encode(seed)), true);
  return concatBytes(Uint8Array.of(0), ripemd160(sha256(pub)));
}

describe('PegUtils.getFlyoverDerivationHash', () => {
  it("gives rskj's expected hash", () => {
    const derivationArgumentsHash = new Uint8Array(32);
    derivationArgumentsHash[0] = 5; // PegTestUtils.createHash3(5)
    const hash = flyoverDerivationHash(
      derivationArgumentsHash,
      versionedMainnetP2pkh('userRefundBtcAddress'),
      versionedMainnetP2pkh('lpBtcAddress'),
      hexToBytes('461750b4824b14c3d9b7702bc6fbb82469082b23'),
    );
    expect(bytesToHex(hash)).toBe('56d4f6bd69378ef607e091832903ddc2b5aac5008bd06987a26f14bb248c44d8');
  });
});

describe('the flyover federation (FlyoverRedeemScriptBuilderImpl, PegUtils.getFlyoverFederationOutputScript)', () => {
  it("builds rskj's redeem script, output script hash and address for a P2SH-P2WSH federation", () => {
    const federationRedeemScript = EXPECTED_FLYOVER_REDEEM_SCRIPT.subarray(34);
    const redeem = flyoverRedeemScript(DERIVATION_HASH, federationRedeemScript);
    expect(bytesToHex(redeem)).toBe(bytesToHex(EXPECTED_FLYOVER_REDEEM_SCRIPT));
    // OP_HASH160 <20> OP_EQUAL: rskj's expectedFlyoverFederationScriptPubKey is the 20 bytes inside.
    expect(bytesToHex(flyoverOutputScript(redeem).subarray(2, 22))).toBe('412e8c6fb9691820b826d423111e12a2590c363d');
    expect(p2shP2wshAddress(redeem, MAINNET_P2SH_VERSION)).toBe('37dfcGJtPJjRUcPkPgqfstPB5umEea3rWZ');
  });

  it("tells the federation's redeem scripts (its own and flyover ones on it) from others", () => {
    const own = GENESIS_FEDERATION.redeemScript;
    expect(isFederationRedeemScript(own, GENESIS_FEDERATION)).toBe(true);
    expect(isFederationRedeemScript(flyoverRedeemScript(DERIVATION_HASH, own), GENESIS_FEDERATION)).toBe(true);
    // A flyover script on another federation, and a prefix that is not <32 bytes> OP_DROP.
    expect(isFederationRedeemScript(EXPECTED_FLYOVER_REDEEM_SCRIPT, GENESIS_FEDERATION)).toBe(false);
    const notDropped = flyoverRedeemScript(DERIVATION_HASH, own);
    notDropped[33] = 0x76;
    expect(isFederationRedeemScript(notDropped, GENESIS_FEDERATION)).toBe(false);
  });
});
