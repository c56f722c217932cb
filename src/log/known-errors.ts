/**
 * Custom errors the node can name in its log without the contract's ABI: OpenZeppelin Contracts 5's
 * standard errors (ERC-6093 token errors, Ownable, AccessControl, Pausable, ...), which most
 * projects revert with. Only errors whose arguments are all static words are listed: those decode
 * by position, with no ABI library in the runtime.
 */
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util';
import { keccak256 } from '../chain/index.js';

const SIGNATURES = [
  // ERC-6093 (draft-IERC6093.sol)
  'ERC20InsufficientBalance(address,uint256,uint256)',
  'ERC20InvalidSender(address)',
  'ERC20InvalidReceiver(address)',
  'ERC20InsufficientAllowance(address,uint256,uint256)',
  'ERC20InvalidApprover(address)',
  'ERC20InvalidSpender(address)',
  'ERC721InvalidOwner(address)',
  'ERC721NonexistentToken(uint256)',
  'ERC721IncorrectOwner(address,uint256,address)',
  'ERC721InvalidSender(address)',
  'ERC721InvalidReceiver(address)',
  'ERC721InsufficientApproval(address,uint256)',
  'ERC721InvalidApprover(address)',
  'ERC721InvalidOperator(address)',
  'ERC1155InsufficientBalance(address,uint256,uint256,uint256)',
  'ERC1155InvalidSender(address)',
  'ERC1155InvalidReceiver(address)',
  'ERC1155MissingApprovalForAll(address,address)',
  'ERC1155InvalidApprover(address)',
  'ERC1155InvalidOperator(address)',
  'ERC1155InvalidArrayLength(uint256,uint256)',
  // token extensions and utilities
  'ERC20ExceededCap(uint256,uint256)',
  'ERC20InvalidCap(uint256)',
  'ERC2612ExpiredSignature(uint256)',
  'ERC2612InvalidSigner(address,address)',
  'InvalidAccountNonce(address,uint256)',
  'SafeERC20FailedOperation(address)',
  'SafeERC20FailedDecreaseAllowance(address,uint256,uint256)',
  'AddressEmptyCode(address)',
  'AddressInsufficientBalance(address)',
  'FailedInnerCall()',
  'FailedCall()',
  'InsufficientBalance(uint256,uint256)',
  'ECDSAInvalidSignature()',
  'ECDSAInvalidSignatureLength(uint256)',
  'ECDSAInvalidSignatureS(bytes32)',
  // access and lifecycle
  'OwnableUnauthorizedAccount(address)',
  'OwnableInvalidOwner(address)',
  'AccessControlUnauthorizedAccount(address,bytes32)',
  'AccessControlBadConfirmation()',
  'EnforcedPause()',
  'ExpectedPause()',
  'ReentrancyGuardReentrantCall()',
  'InvalidInitialization()',
  'NotInitializing()',
] as const;

const WORD = 32;

interface KnownError {
  name: string;
  types: string[];
}

let bySelector: Map<string, KnownError> | undefined;

function table(): Map<string, KnownError> {
  bySelector ??= new Map(
    SIGNATURES.map((signature) => {
      const open = signature.indexOf('(');
      const list = signature.slice(open + 1, -1);
      const selector = bytesToHex(keccak256(utf8ToBytes(signature)).subarray(0, 4));
      return [selector, { name: signature.slice(0, open), types: list === '' ? [] : list.split(',') }];
    }),
  );
  return bySelector;
}

/** `Name(arg, ...)` for a known error whose data has exactly its arguments' words; else undefined. */
export function decodeKnownError(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const known = table().get(bytesToHex(data.subarray(0, 4)));
  if (known === undefined || data.length !== 4 + known.types.length * WORD) return undefined;
  const args = known.types.map((type, i) => formatWord(type, data.subarray(4 + i * WORD, 4 + (i + 1) * WORD)));
  return `${known.name}(${args.join(', ')})`;
}

function formatWord(type: string, word: Uint8Array): string {
  if (type === 'address') return bytesToHex(word.subarray(WORD - 20));
  if (type === 'uint256') return BigInt(bytesToHex(word)).toString();
  return bytesToHex(word);
}
