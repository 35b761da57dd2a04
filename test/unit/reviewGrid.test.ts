// The review table's grid (src/core/review/page/grid.ts): the columns a review shows, and the width under which the
// table scrolls sideways instead of cutting its last columns off.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReviewColumns } from '../../src/core/review/protocol';
import { reviewGrid } from '../../src/core/review/page/grid';

const ALL: ReviewColumns = {
  key: 'Key',
  scope: 'Scope',
  kind: 'Change',
  bytes: 'Size',
  version: 'Version',
  note: 'Note',
  search: 'Search keys',
};

test('every column shown: six tracks, the narrowest width their minimums and the gaps', () => {
  const grid = reviewGrid(ALL, { stored: false, scoped: true });
  assert.equal(grid.template, 'minmax(8em, 3fr) minmax(9em, 1fr) 10em 6em minmax(6em, 2fr) minmax(8em, 3fr)');
  assert.equal(grid.minWidth, 'calc(47em + 56px)');
});

test('a hidden column leaves the grid and its width; an unscoped review keeps a Scope track 0 wide', () => {
  // A ban plan's review: no Size column, rows over several places (stored).
  const bans = reviewGrid({ ...ALL, bytes: '' }, { stored: true, scoped: false });
  assert.equal(bans.template, 'minmax(8em, 3fr) minmax(12em, 2fr) 10em minmax(6em, 2fr) minmax(8em, 3fr)');
  assert.equal(bans.minWidth, 'calc(44em + 48px)');
  const oneScope = reviewGrid({ ...ALL, note: '' }, { stored: false, scoped: false });
  assert.equal(oneScope.template, 'minmax(8em, 3fr) 0 10em 6em minmax(6em, 2fr)');
  assert.equal(oneScope.minWidth, 'calc(30em + 48px)');
});
