/**
 * docs/methods.md is generated from the method table; this fails when the committed file no longer
 * matches the table, and says which command regenerates it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METHODS } from '../../src/rpc/methods/index.js';
import { noParams, params, paramsOf, address, blockSelector, data } from '../../src/rpc/params.js';
import { METHODS_DOC_PATH, REGENERATE_COMMAND, paramsCell, renderMethodsDoc } from '../../scripts/generate-methods-doc.js';

describe('docs/methods.md', () => {
  it('is what scripts/generate-methods-doc.ts renders from METHODS', () => {
    const committed = readFileSync(METHODS_DOC_PATH, 'utf8');
    const stale = `docs/methods.md is stale: run \`${REGENERATE_COMMAND}\` (npx tsx scripts/generate-methods-doc.ts) and commit it`;
    expect(committed === renderMethodsDoc(METHODS), stale).toBe(true);
  });

  it('lists every method of the table once, the refused ones with their reason', () => {
    const doc = renderMethodsDoc(METHODS);
    for (const m of METHODS) {
      const rows = doc.split('\n').filter((line) => line.startsWith(`| \`${m.name}\` |`));
      expect(rows, m.name).toHaveLength(1);
      if (m.unsupported === true) expect(rows[0]).toContain(m.doc);
    }
    expect(doc).toContain('| `eth_feeHistory` | RSK has no EIP-1559 fee market');
  });

  it('shows the params as decoded: names, optional ones with ?', () => {
    const spec = (decode: (raw: unknown[]) => unknown) => ({ name: 'x_y', doc: '', decode });
    expect(paramsCell(spec(params([address, blockSelector.optional])))).toBe('`address`, `block?`');
    expect(paramsCell(spec(params([data.as('message')])))).toBe('`message`');
    expect(paramsCell(spec(noParams))).toBe('none');
    expect(paramsCell(spec((raw) => raw))).toBe('positional, see description');
    const getBalance = METHODS.find((m) => m.name === 'eth_getBalance')!;
    expect(paramsCell(getBalance)).toBe('`address`, `block?`');
  });

  it('knows the params of every method the node answers (params() or declareParams)', () => {
    const undeclared = METHODS.filter((m) => m.unsupported !== true && paramsOf(m.decode) === undefined).map((m) => m.name);
    expect(undeclared, 'wrap a hand-written decode in declareParams([...], decode) so docs/methods.md can list its params').toEqual([]);
  });

  it('keeps table cells whole: pipes escaped, tags shown as text', () => {
    const doc = renderMethodsDoc([{ name: 'net_x', doc: 'a "<id> | <host>" pair', decode: noParams }]);
    expect(doc).toContain('| `net_x` | none | a "&lt;id&gt; \\| &lt;host&gt;" pair |');
  });
});
