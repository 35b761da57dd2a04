// The rows selected on the restriction log page (runs in the webview): a checkbox per row, per run header and in the
// table's header (all rows shown), the count, and the two buttons that hand the users to the bulk commands. The
// selection is kept in the page's state, and cleared when the filter, the run or the universe changes.
import { element } from '../../../core/pageDom';
import { t } from '../../../core/text';
import { localTime } from '../../../core/time';
import type { LogRow, LogState, ToHost } from '../protocol';
import { canHandOver, describeSelected, rowKey, selectedOf, selectionScope } from '../selection';

/** What the page keeps of the selection: the scope it was made under and its rows' keys. */
export interface SavedSelection {
  scope: string;
  keys: string[];
}

export class RowSelection {
  private scope: string;
  private readonly keys: Set<string>;
  private rows: readonly LogRow[] = [];
  private readonly all = element<HTMLInputElement>('selectAll');
  private readonly count = element('selected');
  private readonly ban = element<HTMLButtonElement>('banSelected');
  private readonly unban = element<HTMLButtonElement>('unbanSelected');

  constructor(
    saved: SavedSelection | undefined,
    private readonly table: HTMLElement,
    private readonly save: (selection: SavedSelection) => void,
    private readonly send: (message: ToHost) => void,
  ) {
    this.scope = saved?.scope ?? '';
    this.keys = new Set(saved?.keys ?? []);
    this.all.addEventListener('change', () => this.set(this.rows, this.all.checked));
    this.ban.addEventListener('click', () => this.act('banSelected'));
    this.unban.addEventListener('click', () => this.act('unbanSelected'));
  }

  /** A new state from the host: a selection made under another filter, run or universe is cleared. */
  follow(s: LogState): void {
    const scope = selectionScope(s);
    if (scope !== this.scope) {
      this.scope = scope;
      this.keys.clear();
      this.store();
    }
    this.rows = s.rows;
  }

  /** The checkbox of a row (Space toggles it). */
  rowBox(r: LogRow): HTMLTableCellElement {
    const key = rowKey(r);
    const box = this.box(t`Select the entry of user ${r.user} at ${localTime(r.time)}`);
    box.dataset.key = key;
    box.dataset.focus = `row/${key}`;
    box.addEventListener('change', () => this.set([r], box.checked));
    const td = document.createElement('td');
    td.className = 'select';
    td.append(box);
    return td;
  }

  /** The run header's "Select this run's rows" (every row of the run shown, folded or not). */
  runBox(run: string): HTMLLabelElement {
    const box = this.box();
    box.dataset.run = run;
    box.addEventListener('change', () =>
      this.set(
        this.rows.filter((r) => r.run === run),
        box.checked,
      ),
    );
    const label = document.createElement('label');
    label.className = 'select-run';
    label.append(box, document.createTextNode(t`Select this run's rows`));
    return label;
  }

  /** Sets every checkbox, the count and the buttons from the selection. */
  sync(): void {
    const selected = selectedOf(this.rows, this.keys);
    const mark = (box: HTMLInputElement, rows: readonly LogRow[]) => {
      const n = rows.filter((r) => this.keys.has(rowKey(r))).length;
      box.checked = n > 0 && n === rows.length;
      box.indeterminate = n > 0 && n < rows.length;
    };
    mark(this.all, this.rows);
    this.all.disabled = this.rows.length === 0;
    for (const box of Array.from(this.table.querySelectorAll<HTMLInputElement>('input[data-key]')))
      box.checked = this.keys.has(box.dataset.key ?? '');
    for (const box of Array.from(this.table.querySelectorAll<HTMLInputElement>('input[data-run]')))
      mark(
        box,
        this.rows.filter((r) => r.run === box.dataset.run),
      );
    this.count.textContent = describeSelected(selected);
    const disabled = String(!canHandOver(selected));
    this.ban.setAttribute('aria-disabled', disabled);
    this.unban.setAttribute('aria-disabled', disabled);
  }

  private box(label?: string): HTMLInputElement {
    const box = document.createElement('input');
    box.type = 'checkbox';
    if (label) {
      box.setAttribute('aria-label', label);
      box.title = label;
    }
    return box;
  }

  private set(rows: readonly LogRow[], on: boolean): void {
    for (const r of rows) {
      if (on) this.keys.add(rowKey(r));
      else this.keys.delete(rowKey(r));
    }
    this.store();
    this.sync();
  }

  private store(): void {
    this.save({ scope: this.scope, keys: [...this.keys] });
  }

  private act(type: 'banSelected' | 'unbanSelected'): void {
    const selected = selectedOf(this.rows, this.keys);
    if (canHandOver(selected)) this.send({ type, ...selected });
  }
}
