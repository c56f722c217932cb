/**
 * LevelDB lets one handle at a time open a directory. classic-level reports a held lock as
 * "Database failed to open" with the LEVEL_LOCKED code on its cause; this says what it means.
 */
import { resolve } from 'node:path';

export class DataDirInUseError extends Error {
  readonly code = 'DATA_DIR_IN_USE';

  constructor(
    readonly dataDir: string,
    options?: { cause?: unknown },
  ) {
    super(
      `another rsk-devnode holds the data directory ${resolve(dataDir)} open (its database is locked). ` +
        'Stop that node, or start this one with --data-dir <another directory> or --in-memory.',
      options,
    );
    this.name = 'DataDirInUseError';
  }
}

/** Whether an error (or one of its causes) is LevelDB's "lock already held". */
export function isDatabaseLocked(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === 'LEVEL_LOCKED') return true;
  }
  return false;
}
