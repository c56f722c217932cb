/**
 * rpc_modules, derived from the method table: every prefix before `_` of a method the node
 * answers (entries marked `unsupported` do not count), so a new namespace shows up by itself.
 * index.ts builds this method with a function that returns the table, so this module needs no
 * import of index.ts (that was an import cycle).
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

/** The rpc_ namespace over `table()`, the method table it reports on (read at the first call). */
export function rpcMethods(table: () => readonly Pick<MethodSpec<unknown>, 'name' | 'unsupported'>[]) {
  let modules: Record<string, string> | undefined;
  return [
    method(
      'rpc_modules',
      'The enabled modules and their versions: {"eth": "1.0", …}, from the method table.',
      noParams,
      async () => (modules ??= modulesOf(table())),
    ),
  ];
}
