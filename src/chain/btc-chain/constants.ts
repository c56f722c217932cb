/**
 * Bitcoin Core's regtest consensus values (chainparams.cpp CRegTestParams, validation.cpp) as the
 * node's Bitcoin chain uses them, and the node's own choices (the premine and the faucet), each
 * with its reason.
 */
import { hexToBytes } from '@noble/hashes/utils.js';

/** Regtest's proof-of-work limit, compact form (powLimit 7fffff…): about one header in two meets it. */
export const REGTEST_BITS = 0x207fffff;
/** Version bits of the blocks we mine: BIP9's top bits, as bitcoind's regtest miner sets them. */
export const BLOCK_VERSION = 0x20000000;
/** The first block subsidy: 50 BTC in satoshis. */
export const INITIAL_SUBSIDY_SATOSHIS = 5_000_000_000n;
/** Regtest halves the subsidy every 150 blocks (nSubsidyHalvingInterval). */
export const HALVING_INTERVAL = 150;
/** A coinbase output is spendable in a block at least 100 blocks above its own (COINBASE_MATURITY). */
export const COINBASE_MATURITY = 100;

/**
 * Blocks mined to the faucet when a network's Bitcoin chain is created: 101, as bitcoind users
 * do (`generatetoaddress 101`), so the first coinbases have matured and the faucet can pay at once.
 * Their times are fixed (genesis time + height), so every new chain, and every evm_reset, has the
 * same 101 blocks.
 */
export const PREMINED_BLOCKS = 101;

/** bitcoinj / Bitcoin Core regtest address prefixes (bech32 "bcrt", base58 0x6f / 0xc4, WIF 0xef). */
export const REGTEST_NETWORK = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef } as const;

/**
 * The faucet's private key: sha256("rsk-devnode regtest faucet"). Public on purpose (documented),
 * like the dev accounts' keys: anyone may spend the faucet's coins on a local chain.
 */
export const FAUCET_PRIVATE_KEY = hexToBytes('7f02a0428edb73ff14616d4fa825837ddeac0c62ef7564f9f00cbce6226bfa99');
/**
 * Its compressed public key, written out: deriving it at load would build the curve's precomputed
 * tables (tens of ms) on every start. test/unit/btc-chain-lazy.test.ts derives it again.
 */
export const FAUCET_PUBLIC_KEY = hexToBytes('03bf81dd032b1596a0ecbb0db13377394d88d0d0bfd98b89d28ff769ff0d6bb827');

/** The faucet's fee rate in satoshis per virtual byte: bitcoind's default minimum relay fee is 1. */
export const FAUCET_FEE_RATE = 2n;
/** Outputs below this are dust to bitcoind's relay policy (546 sat for P2PKH); the faucet pays no less. */
export const DUST_LIMIT_SATOSHIS = 546n;

/**
 * The regtest genesis block's only transaction (the mainnet one: "The Times 03/Jan/2009 …"),
 * legacy serialization; its txid is the genesis merkle root 4a5e1e4b…. Its output is unspendable.
 */
export const GENESIS_COINBASE_HEX =
  '01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff4d04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66207365636f6e64206261696c6f757420666f722062616e6b73ffffffff0100f2052a01000000434104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac00000000';

/** Regtest genesis header fields (CRegTestParams: CreateGenesisBlock(1296688602, 2, 0x207fffff, 1, 50 BTC)). */
export const GENESIS_TIME = 1_296_688_602;
export const GENESIS_NONCE = 2;
export const GENESIS_VERSION = 1;
