/**
 * The V8 flags the CLI changes while it runs (heap growth, the young generation's growth, the
 * inlining budget, --expose-gc), set through here so the bin's code cache can be made under the
 * flags the process started with. V8 stamps a code cache with a hash of every flag's value and
 * rejects it in a process whose flags hash differently: a cache made after the CLI changed its
 * flags would never be accepted by the next start, which compiles the bundle before it changes any
 * (scripts/bin-loader.cjs, src/code-cache.ts).
 */
import { setFlagsFromString } from 'node:v8';

/** Each changed flag's name → the setting it had when the process started. */
const startSettings = new Map<string, string>();
/** Each changed flag's name → the setting it has now. */
const currentSettings = new Map<string, string>();

/** `--semi-space-growth-factor=2` → `semi-space-growth-factor`; `--no-expose-gc` → `expose-gc`. */
function flagName(setting: string): string {
  return setting.replace(/^--(no-)?/, '').split('=')[0]!.replaceAll('_', '-');
}

/**
 * Sets `setting` (e.g. `--heap-growing-percent=30`). `startSetting` is the flag's setting when the
 * process started (V8's default, as the callers set only flags the command line left alone).
 */
export function setV8Flag(setting: string, startSetting: string): void {
  const name = flagName(setting);
  if (!startSettings.has(name)) startSettings.set(name, startSetting);
  currentSettings.set(name, setting);
  setFlagsFromString(setting);
}

/** Runs `fn` with every flag changed through setV8Flag back at its start setting, then restores them. */
export function withStartFlags<T>(fn: () => T): T {
  for (const setting of startSettings.values()) setFlagsFromString(setting);
  try {
    return fn();
  } finally {
    for (const setting of currentSettings.values()) setFlagsFromString(setting);
  }
}
