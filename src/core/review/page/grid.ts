// The review table's grid: its columns' widths, and the width under which the table scrolls sideways instead of
// cutting its last columns off (a review beside another editor is often narrower than its columns need).
import type { ReviewColumns } from '../protocol';

/** The gap between columns and the padding either side of a row (style.css's .head and .row). */
const GAP_PX = 8;
const PADDING_PX = 16;

export interface Grid {
  /** grid-template-columns, without the columns the review hides. */
  template: string;
  /** The narrowest the columns fit in: a CSS length. */
  minWidth: string;
}

export function reviewGrid(c: ReviewColumns, where: { stored: boolean; scoped: boolean }): Grid {
  const widths: [keyof ReviewColumns, string][] = [
    ['key', 'minmax(8em, 3fr)'],
    ['scope', where.stored ? 'minmax(12em, 2fr)' : where.scoped ? 'minmax(9em, 1fr)' : '0'],
    ['kind', '10em'],
    ['bytes', '6em'],
    ['version', 'minmax(6em, 2fr)'],
    ['note', 'minmax(8em, 3fr)'],
  ];
  // The Scope column stays in the grid even when empty (0 wide), so the cells keep their places.
  const shown = widths.filter(([id]) => id === 'scope' || c[id] !== '').map(([, w]) => w);
  const ems = shown.reduce((sum, w) => sum + Number(/^(?:minmax\()?([\d.]+)em/.exec(w)?.[1] ?? 0), 0);
  return {
    template: shown.join(' '),
    minWidth: `calc(${ems}em + ${(shown.length - 1) * GAP_PX + PADDING_PX}px)`,
  };
}
