/**
 * Files the package ships beside its code (chain-data/*.genesis.json, the dashboard's static files),
 * found from the package root: the nearest folder above this module whose package.json has a name
 * (dist/bin/'s has none: it only makes the bin CommonJS, scripts/build.mjs). The code runs from src/
 * (tsx, the tests), dist/ (the library) and dist/bin/ (the CLI's bundle, where this module sits
 * inlined), so a path relative to the calling module would differ by layout.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: { packageRoot: string; codeRoot: string } | undefined;

/** Whether `dir` holds a package.json with a name. */
function isPackageRoot(dir: string): boolean {
  try {
    return typeof (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'string';
  } catch {
    return false;
  }
}

function roots(): { packageRoot: string; codeRoot: string } {
  if (root !== undefined) return root;
  const here = dirname(fileURLToPath(import.meta.url));
  let packageRoot = here;
  while (!isPackageRoot(packageRoot)) {
    const parent = dirname(packageRoot);
    if (parent === packageRoot) throw new Error(`rsk-devnode: no package.json in any folder above ${here}`);
    packageRoot = parent;
  }
  // The top folder of the tree this code runs from: src/ or dist/ (dist/ too for the bundle in dist/bin/).
  const codeRoot = join(packageRoot, relative(packageRoot, here).split(sep)[0] ?? '');
  root = { packageRoot, codeRoot };
  return root;
}

/** A path inside the package, e.g. packagePath('chain-data'). */
export function packagePath(...segments: string[]): string {
  return join(roots().packageRoot, ...segments);
}

/** A path inside the tree the code runs from (src/ or dist/), e.g. codePath('gateway', 'static'). */
export function codePath(...segments: string[]): string {
  return join(roots().codeRoot, ...segments);
}
