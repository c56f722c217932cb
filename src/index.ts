/** Library entry: `import { createNode } from 'rsk-devnode'`. */
export { createNode, CLIENT_VERSION, HARDHAT_CLIENT_VERSION, MAX_BATCH_SIZE } from './node.js';
export { UNAUTHORIZED_CODE } from './server/rpc-route.js';
export type { DevNode, NodeForkOptions, NodeOptions, RunningServer } from './node.js';
export type { ApiKey } from './node-keys.js';
export type { KeylessSetting } from './keyless.js';
export type { ConsoleLogEntry, NetworkName } from './chain/index.js';
export { DISCONNECTED, Eip1193Provider, ProviderRpcError } from './provider.js';
export { DataDirInUseError } from './data-dir-in-use.js';
export type { LogDestination, LogLevel } from './logger.js';
export type { RequestArguments } from './provider.js';
