/**
 * Layout measurements for the dashboard's browser tests: what a person on a narrow phone would see
 * go wrong (a page wider than the screen, a control pushed off its edge, a name broken into one
 * word a line, chart text shrunk with its drawing). The functions run inside the page; the project
 * compiles without the DOM library, so the few DOM members they use are typed here by hand.
 */
import type { Locator, Page } from 'playwright-core';

interface Rect { left: number; right: number; top: number; bottom: number; width: number; height: number }
interface PageNode { nodeType: number; textContent: string | null }
interface PageElement extends PageNode {
  tagName: string;
  id: string;
  parentElement: PageElement | null;
  childNodes: ArrayLike<PageNode>;
  getBoundingClientRect(): Rect;
  getClientRects(): ArrayLike<Rect>;
  closest(selector: string): PageElement | null;
  getScreenCTM?: () => { a: number; d: number } | null;
}
interface PageStyle { display: string; visibility: string; overflowX: string; fontSize: string }
interface PageWindow {
  innerWidth: number;
  document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelectorAll(selector: string): ArrayLike<PageElement> };
  getComputedStyle(element: PageElement): PageStyle;
}

/** Half a pixel of slack for sub-pixel rounding of box edges. */
const EDGE_SLACK = 0.5;

export interface PageWidth {
  viewportWidth: number;
  /** The document's scroll width; more than clientWidth means the page scrolls sideways. */
  scrollWidth: number;
  clientWidth: number;
  /** Visible elements that reach past the left or right edge of the screen, as "tag#id.class". */
  offScreen: string[];
}

/**
 * How wide the page is against the screen. Elements inside a box that scrolls or clips sideways
 * are that box's business, and `.visually-hidden` ones are meant to be invisible.
 */
export async function measurePageWidth(page: Page): Promise<PageWidth> {
  return page.evaluate((slack) => {
    const w = globalThis as unknown as PageWindow;
    const describe = (e: PageElement) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}`;
    const offScreen: string[] = [];
    for (const e of Array.from(w.document.querySelectorAll('body *'))) {
      if (e.closest('.visually-hidden') !== null) continue;
      const style = w.getComputedStyle(e);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      let boxed = false;
      for (let up = e.parentElement; up !== null && !boxed; up = up.parentElement) {
        boxed = up.tagName !== 'BODY' && up.tagName !== 'HTML' && w.getComputedStyle(up).overflowX !== 'visible';
      }
      if (boxed) continue;
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -slack || r.right > w.innerWidth + slack) offScreen.push(`${describe(e)} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    }
    const root = w.document.documentElement;
    return { viewportWidth: w.innerWidth, scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, offScreen };
  }, EDGE_SLACK);
}

/** Whether the element's whole box is on the screen (not cut by its left, right or top edge). */
export async function fullyOnScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (box === null || viewport === null) return false;
  return box.x >= -EDGE_SLACK && box.y >= -EDGE_SLACK && box.x + box.width <= viewport.width + EDGE_SLACK;
}

export interface LineCount {
  text: string;
  words: number;
  /** Lines the inline element is laid out on. */
  lines: number;
}

/** For each inline element (a link, a span): its text, its words, and the lines it takes. */
export async function lineCounts(locator: Locator): Promise<LineCount[]> {
  return locator.evaluateAll((nodes) =>
    (nodes as unknown as PageElement[]).map((e) => {
      const text = (e.textContent ?? '').trim();
      // One client rect per line box an inline element is split over.
      return { text, words: text.split(/\s+/).filter(Boolean).length, lines: e.getClientRects().length };
    }),
  );
}

export interface ShownText {
  text: string;
  /** The size the text is drawn at on screen, in CSS px: inside an SVG, scaled with its drawing. */
  fontPx: number;
  rect: Rect;
}

/**
 * Every piece of text shown under the root element, with the size it is drawn at. SVG `<title>`
 * tooltips are not drawn and are left out.
 */
export async function shownTexts(root: Locator): Promise<ShownText[]> {
  return root.evaluate((node) => {
    const w = globalThis as unknown as PageWindow;
    const rootElement = node as unknown as PageElement & { querySelectorAll(selector: string): ArrayLike<PageElement> };
    const TEXT_NODE = 3;
    const found: ShownText[] = [];
    for (const e of Array.from(rootElement.querySelectorAll('*'))) {
      if (e.tagName.toLowerCase() === 'title') continue;
      const own = Array.from(e.childNodes).filter((c) => c.nodeType === TEXT_NODE).map((c) => c.textContent ?? '').join('').trim();
      if (own === '') continue;
      const style = w.getComputedStyle(e);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const matrix = e.getScreenCTM?.() ?? null;
      const scale = matrix === null ? 1 : Math.min(Math.abs(matrix.a), Math.abs(matrix.d));
      const r = e.getBoundingClientRect();
      found.push({
        text: own,
        fontPx: parseFloat(style.fontSize) * scale,
        rect: { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height },
      });
    }
    return found;
  });
}

/** Whether two boxes overlap (touching edges do not count). */
export function overlap(a: Rect, b: Rect): boolean {
  return a.left < b.right - EDGE_SLACK && b.left < a.right - EDGE_SLACK && a.top < b.bottom - EDGE_SLACK && b.top < a.bottom - EDGE_SLACK;
}
