/**
 * rpc_modules, derived from the method table: every prefix before `_` of a method the node
 * answers (entries marked `unsupported` do not count), so a new namespace shows up by itself.
 * index.ts holds this module's method, so the table is imported at call time, not statically:
 * a static import would be a cycle that breaks whenever this module is loaded first.
 */
import type { MethodSpec } from '../types.js';
import { method } from '../context.js';
import { noParams } from '../params.js';

/** rskj's reference.conf gives every module version "1.0". */
export const MODULE_VERSION = '1.0';

/** `{ "<module>": "1.0", … }` for the modules of a method table, sorted by name. */
export function modulesOf(methods: readonly Pick<MethodSpec<unknown>, 'name' | 'unsupported'>[]): Record<string, string> {
  const names = new Set<string>();
  for (const m of methods) {
    const underscore = m.name.indexOf('_');
    if (m.unsupported !== true && underscore > 0) names.add(m.name.slice(0, underscore));
  }
  return Object.fromEntries([...names].sort().map((name) => [name, MODULE_VERSION]));
}

let modules: Record<string, string> | undefined;

export const rpcMethods = [
  method(
    'rpc_modules',
    'The enabled modules and their versions: {"eth": "1.0", …}, from the method table.',
    noParams,
    async () => (modules ??= modulesOf((await import('./index.js')).METHODS)),
  ),
];
