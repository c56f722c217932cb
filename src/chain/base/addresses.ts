import { hexToBytes } from '@ethereumjs/util';

/** RSK's system contracts (reference sections 3 and 5). */
export const BRIDGE_ADDRESS = hexToBytes('0x0000000000000000000000000000000001000006');
export const REMASC_ADDRESS = hexToBytes('0x0000000000000000000000000000000001000008');
export const ZERO_ADDRESS = new Uint8Array(20);
