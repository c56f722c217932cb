/** Opcode names and stack arities as rskj's tracer and error messages show them (OpCode.java). */

/** What these functions read of a recorder frame (recorder.ts's Frame has these fields). */
interface FrameAt {
  lastStep?: { byte: number };
}

const RSK_NAME_OVERRIDES: Record<number, string> = { 0x20: 'SHA3', 0xff: 'SUICIDE', 0xa8: 'DUPN', 0xa9: 'SWAPN', 0xaa: 'TXINDEX', 0xfc: 'HEADER' };

/** The opcode's name as rskj's tracer prints it; null for an undefined opcode. */
export function rskOpName(code: number, frame: FrameAt): string | null {
  const byte = code === 0xfe ? actualByte(frame) : code;
  const override = RSK_NAME_OVERRIDES[byte];
  if (override !== undefined) return override;
  if (byte === 0xfe || code === 0xfe) return null;
  return OPCODE_NAMES[byte] ?? null;
}

/** ethereumjs reports every undefined opcode as 0xfe; the code that ran has the real byte. */
export function actualByte(frame: FrameAt): number {
  return frame.lastStep?.byte ?? 0xfe;
}

/** Yellow-paper names of the opcodes RSK defines (OpCode.java), by byte. */
const OPCODE_NAMES: Record<number, string> = (() => {
  const names: Record<number, string> = {
    0x00: 'STOP', 0x01: 'ADD', 0x02: 'MUL', 0x03: 'SUB', 0x04: 'DIV', 0x05: 'SDIV', 0x06: 'MOD', 0x07: 'SMOD',
    0x08: 'ADDMOD', 0x09: 'MULMOD', 0x0a: 'EXP', 0x0b: 'SIGNEXTEND', 0x10: 'LT', 0x11: 'GT', 0x12: 'SLT', 0x13: 'SGT',
    0x14: 'EQ', 0x15: 'ISZERO', 0x16: 'AND', 0x17: 'OR', 0x18: 'XOR', 0x19: 'NOT', 0x1a: 'BYTE', 0x1b: 'SHL',
    0x1c: 'SHR', 0x1d: 'SAR', 0x20: 'SHA3', 0x30: 'ADDRESS', 0x31: 'BALANCE', 0x32: 'ORIGIN', 0x33: 'CALLER',
    0x34: 'CALLVALUE', 0x35: 'CALLDATALOAD', 0x36: 'CALLDATASIZE', 0x37: 'CALLDATACOPY', 0x38: 'CODESIZE',
    0x39: 'CODECOPY', 0x3a: 'GASPRICE', 0x3b: 'EXTCODESIZE', 0x3c: 'EXTCODECOPY', 0x3d: 'RETURNDATASIZE',
    0x3e: 'RETURNDATACOPY', 0x3f: 'EXTCODEHASH', 0x40: 'BLOCKHASH', 0x41: 'COINBASE', 0x42: 'TIMESTAMP',
    0x43: 'NUMBER', 0x44: 'DIFFICULTY', 0x45: 'GASLIMIT', 0x46: 'CHAINID', 0x47: 'SELFBALANCE', 0x48: 'BASEFEE',
    0x50: 'POP', 0x51: 'MLOAD', 0x52: 'MSTORE', 0x53: 'MSTORE8', 0x54: 'SLOAD', 0x55: 'SSTORE', 0x56: 'JUMP',
    0x57: 'JUMPI', 0x58: 'PC', 0x59: 'MSIZE', 0x5a: 'GAS', 0x5b: 'JUMPDEST', 0x5c: 'TLOAD', 0x5d: 'TSTORE',
    0x5e: 'MCOPY', 0x5f: 'PUSH0', 0xf0: 'CREATE', 0xf1: 'CALL', 0xf2: 'CALLCODE', 0xf3: 'RETURN',
    0xf4: 'DELEGATECALL', 0xf5: 'CREATE2', 0xfa: 'STATICCALL', 0xfd: 'REVERT', 0xff: 'SUICIDE',
  };
  for (let i = 0; i < 32; i++) names[0x60 + i] = `PUSH${i + 1}`;
  for (let i = 0; i < 16; i++) {
    names[0x80 + i] = `DUP${i + 1}`;
    names[0x90 + i] = `SWAP${i + 1}`;
  }
  for (let i = 0; i <= 4; i++) names[0xa0 + i] = `LOG${i}`;
  return names;
})();

export function opcodeName(byte: number): string | undefined {
  return OPCODE_NAMES[byte];
}

/** Operands an opcode pops (for "stack underflow" messages). */
export function stackInputs(op: number): number {
  if (op >= 0x80 && op <= 0x8f) return op - 0x7f;
  if (op >= 0x90 && op <= 0x9f) return op - 0x8e;
  if (op >= 0xa0 && op <= 0xa4) return op - 0xa0 + 2;
  return STACK_INPUTS[op] ?? 0;
}

const STACK_INPUTS: Record<number, number> = {
  0x01: 2, 0x02: 2, 0x03: 2, 0x04: 2, 0x05: 2, 0x06: 2, 0x07: 2, 0x08: 3, 0x09: 3, 0x0a: 2, 0x0b: 2,
  0x10: 2, 0x11: 2, 0x12: 2, 0x13: 2, 0x14: 2, 0x15: 1, 0x16: 2, 0x17: 2, 0x18: 2, 0x19: 1, 0x1a: 2, 0x1b: 2,
  0x1c: 2, 0x1d: 2, 0x20: 2, 0x31: 1, 0x35: 1, 0x37: 3, 0x39: 3, 0x3b: 1, 0x3c: 4, 0x3e: 3, 0x3f: 1, 0x40: 1,
  0x50: 1, 0x51: 1, 0x52: 2, 0x53: 2, 0x54: 1, 0x55: 2, 0x56: 1, 0x57: 2, 0x5c: 1, 0x5d: 2, 0x5e: 3,
  0xf0: 3, 0xf1: 7, 0xf2: 7, 0xf3: 2, 0xf4: 6, 0xf5: 4, 0xfa: 6, 0xfd: 2, 0xff: 1,
};

