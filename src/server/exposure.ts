/**
 * The start-up warning for a node reachable from other machines without --hosted. Its dashboard
 * lets anyone who reaches it sign up, and a dashboard key then has test control (evm_*, hardhat_*,
 * anvil_*, sco_*) over both chains: fine on a developer's own machine, not on a network.
 */
import { parseIpLiteral } from '../gateway/ban-list.js';

/** Whether listening on `host` keeps the node on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  if (host.trim().toLowerCase() === 'localhost') return true;
  const bytes = parseIpLiteral(host.trim());
  if (bytes === undefined) return false;
  if (bytes.length === 4) return bytes[0] === 127;
  return bytes.subarray(0, 15).every((b) => b === 0) && bytes[15] === 1;
}

/** The warning to log for a node listening on `host`; undefined when there is nothing to warn of. */
export function exposureWarning(host: string, hosted: boolean): string | undefined {
  if (hosted || isLoopbackHost(host)) return undefined;
  return (
    `WARNING: listening on ${host}, beyond this machine, without --hosted: anyone who reaches the ` +
    'dashboard can sign up and get a key with test control over both chains (evm_*, hardhat_*, ' +
    'anvil_*, sco_*: mine, revert, set balances, ban clients). The node\'s own keys stay the ' +
    "operator's. Start with --hosted to give dashboard keys the hosted endpoint's rights, or listen on 127.0.0.1."
  );
}
