/** A small hand-written SVG line chart: resident memory over operations, with axes and labels. */

export interface Sample {
  /** Seconds since the node started serving. */
  t: number;
  /** Operations completed (transactions, snapshot/revert cycles, filters, subscribers). */
  ops: number;
  rssMb: number;
  /** The node's V8 heap and external memory, when the soak runs with --probe (MB). */
  heapUsedMb?: number;
  heapTotalMb?: number;
  externalMb?: number;
}

const WIDTH = 720;
const HEIGHT = 360;
const MARGIN = { left: 64, right: 24, top: 40, bottom: 56 };
const TICKS = 5;

/** A round step for about TICKS ticks over [0, max]. */
function tickStep(max: number): number {
  const raw = max / TICKS;
  const magnitude = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((step) => step >= raw)!;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function memoryChart(samples: Sample[], title: string): string {
  const maxOps = Math.max(1, ...samples.map((s) => s.ops));
  const maxRss = Math.max(1, ...samples.map((s) => s.rssMb)) * 1.1;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (ops: number) => Number((MARGIN.left + (ops / maxOps) * plotW).toFixed(1));
  const y = (mb: number) => Number((MARGIN.top + plotH - (mb / maxRss) * plotH).toFixed(1));
  const lines: string[] = [];
  const xStep = tickStep(maxOps);
  for (let v = 0; v <= maxOps; v += xStep) {
    lines.push(`<line x1="${x(v)}" y1="${MARGIN.top + plotH}" x2="${x(v)}" y2="${MARGIN.top + plotH + 5}" stroke="#333"/>`);
    lines.push(`<text x="${x(v)}" y="${MARGIN.top + plotH + 20}" text-anchor="middle">${v >= 1000 ? `${v / 1000}k` : v}</text>`);
  }
  const yStep = tickStep(maxRss);
  for (let v = 0; v <= maxRss; v += yStep) {
    lines.push(`<line x1="${MARGIN.left}" y1="${y(v)}" x2="${MARGIN.left + plotW}" y2="${y(v)}" stroke="#ddd"/>`);
    lines.push(`<text x="${MARGIN.left - 8}" y="${y(v) + 4}" text-anchor="end">${v}</text>`);
  }
  const points = samples.map((s) => `${x(s.ops)},${y(s.rssMb)}`).join(' ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="14">${escapeXml(title)}</text>`,
    ...lines,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + plotH}" stroke="#333"/>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top + plotH}" x2="${MARGIN.left + plotW}" y2="${MARGIN.top + plotH}" stroke="#333"/>`,
    `<polyline points="${points}" fill="none" stroke="#1f6feb" stroke-width="2"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 14}" text-anchor="middle">operations completed</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">resident memory (MB)</text>`,
    '</svg>',
    '',
  ].join('\n');
}

/** Least-squares slope of RSS per 1,000 operations over some samples. */
export function slopePerKiloOp(samples: Sample[]): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mx = samples.reduce((a, s) => a + s.ops, 0) / n;
  const my = samples.reduce((a, s) => a + s.rssMb, 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.ops - mx) * (s.rssMb - my);
    den += (s.ops - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 1000;
}
