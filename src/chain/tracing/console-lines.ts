/**
 * The console.log lines of a traced execution, read from its call tree: each call to the console
 * address is a frame (STATICCALL, usually) whose input is the console call's data. Traces carry
 * them so that a trace shows what the node printed (console/observer.ts): callTracer on the console
 * frame itself (`consoleLog`), rskTracer as the transaction's list (`consoleLogs`).
 */
import { consoleLine } from '../console/decode.js';
import { isConsoleAddress } from '../console/observer.js';
import type { Frame, SelfDestructRecord } from './recorder.js';

/** The printed line of a frame that calls the console address; undefined for any other frame. */
export function consoleLineOf(frame: Frame): string | undefined {
  const code = frame.codeAddress ?? frame.address;
  return code !== undefined && isConsoleAddress(code) ? consoleLine(frame.input) : undefined;
}

/** Every console line of the tree, in the order the calls were made (failed frames' included, as printed). */
export function consoleLinesOf(root: Frame): string[] {
  const lines: string[] = [];
  const walk = (frame: Frame | SelfDestructRecord) => {
    if (!('children' in frame)) return;
    const line = consoleLineOf(frame);
    if (line !== undefined) lines.push(line);
    for (const child of frame.children) walk(child);
  };
  walk(root);
  return lines;
}
