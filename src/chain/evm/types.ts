/** Type names for the parts of @ethereumjs/evm that custom opcodes and precompiles plug into. */
import type { EVMOpts } from '@ethereumjs/evm';

export type CustomOpcode = NonNullable<EVMOpts['customOpcodes']>[number];
export type AddOpcode = Extract<CustomOpcode, { logicFunction: unknown }>;
export type RunState = Parameters<AddOpcode['logicFunction']>[0];
export type GasCommon = Parameters<NonNullable<AddOpcode['gasFunction']>>[2];
export type CustomPrecompile = NonNullable<EVMOpts['customPrecompiles']>[number];
export type PrecompileFunc = Extract<CustomPrecompile, { function: unknown }>['function'];
