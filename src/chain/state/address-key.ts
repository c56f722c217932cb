/**
 * The string key of an address in the state views' and call layers' maps: `Address.toString()`,
 * made once per Address object. `toString` builds its hex one string per byte, and a map lookup
 * then flattens that string again; an eth_call reads the same few Address objects (caller, callee)
 * five to eight times (the EVM's account, code and storage reads, through CallState's layers and
 * the head view), each read making the key anew.
 */
import type { Address } from '@ethereumjs/util';

/** Keys of the Address objects still alive; nothing changes an Address's bytes after it is made. */
const keys = new WeakMap<Address, string>();

/** `address.toString()`: lower-case hex with 0x, as the views' maps and StateChanges key accounts. */
export function addressKey(address: Address): string {
  let key = keys.get(address);
  if (key === undefined) {
    key = address.toString();
    keys.set(address, key);
  }
  return key;
}
