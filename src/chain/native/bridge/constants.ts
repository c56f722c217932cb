/**
 * rskj's regtest Bridge constants, each with the rskj file it comes from (paths relative to
 * rskj-core/src/main/java/co/rsk/peg/, read at rsksmart/rskj d987a4c). Regtest activates every
 * network upgrade from block 0 (rskj-core/src/main/resources/config/regtest.conf), so the
 * RSKIP-gated branches below are the "active" ones.
 */

/** constants/BridgeRegTestConstants.java DEFAULT_FEDERATION_PUBLIC_KEYS (BTC = RSK = MST key per member). */
export const GENESIS_FEDERATION_PUBLIC_KEYS = [
  '0362634ab57dae9cb373a5d536e66a8c4f67468bbcfb063809bab643072d78a124',
  '03c5946b3fbae03a654237da863c9ed534e0878657175b132b8ca630f245df04db',
  '02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1',
] as const;

/** federation/constants/FederationRegTestConstants.java erpFedPubKeysList ('erp-fed-01'..'04'). */
export const ERP_FEDERATION_PUBLIC_KEYS = [
  '03b9fc46657cf72a1afa007ecf431de1cd27ff5cc8829fa625b66ca47b967e6b24',
  '029cecea902067992d52c38b28bf0bb2345bda9b21eca76b16a17c477a64e43301',
  '03284178e5fbcc63c54c3b38e3ef88adf2da6c526313650041b0ef955763634ebd',
  '03ab0e2cd7ed158687fc13b88019990860cdb72b1f5777b58513312550ea1584bc',
] as const;

/** FederationRegTestConstants.java erpFedActivationDelay: the CSV value of the emergency branch. */
export const ERP_FEDERATION_ACTIVATION_DELAY = 500;

/**
 * FederationRegTestConstants.java genesisFederationCreationTime 2016-01-01T00:00:00Z, in seconds:
 * Bridge.getFederationCreationTime returns epoch seconds once RSKIP419 is active (milliseconds before).
 */
export const GENESIS_FEDERATION_CREATION_TIME_SECONDS = 1_451_606_400n;

/** federation/FederationSupportImpl.java getGenesisFederation: genesisFederationCreationBlockNumber = 1. */
export const GENESIS_FEDERATION_CREATION_BLOCK_NUMBER = 1n;

/** constants/BridgeRegTestConstants.java minimumPeginTxValue (RSKIP219 active), satoshis. */
export const MINIMUM_PEGIN_TX_VALUE_SATOSHIS = 500_000n;

/** lockingcap/constants/LockingCapRegTestConstants.java initialValue = 1,000 BTC, in satoshis. */
export const INITIAL_LOCKING_CAP_SATOSHIS = 100_000_000_000n;

/** feeperkb/constants/FeePerKbRegTestConstants.java genesisFeePerKb = Coin.MILLICOIN, satoshis. */
export const GENESIS_FEE_PER_KB_SATOSHIS = 100_000n;

/** constants/BridgeRegTestConstants.java minimumPegoutTxValue (RSKIP219 active): 250,000 satoshis. */
export const MINIMUM_PEGOUT_TX_VALUE_SATOSHIS = 250_000n;

/** co/rsk/core/Coin.java toBitcoin (Denomination.weisToSatoshis): 1 RBTC = 10^18 wei, 1 BTC = 10^8 satoshis. */
export const WEIS_PER_SATOSHI = 10_000_000_000n;

/** BridgeUtils.getSigningSize: bytes assumed per signature when sizing a peg-out. */
export const PEGOUT_SIGNATURE_SIZE = 72;
/** BridgeUtils.calculateTxBaseSize: SEGWIT_COMPATIBLE_SCRIPT_SIG_SIZE per input. */
export const SEGWIT_COMPATIBLE_SCRIPT_SIG_SIZE = 36;

/** BridgeSupport.getBtcTxHashProcessedHeight: the height of a BTC tx the Bridge has not processed. */
export const BTC_TX_NOT_PROCESSED_HEIGHT = -1n;

/** bitcoinj RegTestParams p2shHeader: P2SH addresses start with '2'. */
export const BTC_REGTEST_P2SH_VERSION = 196;

/** BridgeConstants minimumPegoutValuePercentageToReceiveAfterFee: the gap added to the fee-based minimum. */
export const PEGOUT_FEE_GAP_PERCENT = 20n;

/** BridgeRegTestConstants numberOfBlocksBetweenPegouts: RSK blocks between two batches. */
export const PEGOUT_BATCH_INTERVAL_BLOCKS = 50n;

/** BridgeRegTestConstants rsk2BtcMinimumAcceptableConfirmations: RSK blocks before a batch may be signed. */
export const PEGOUT_RSK_CONFIRMATIONS = 3n;

/** constants/BridgeConstants.java getMaxRbtc: Coin.valueOf(21_000_000, 0), the RBTC the Bridge starts with, in satoshis. */
export const MAX_RBTC_SATOSHIS = 2_100_000_000_000_000n;
