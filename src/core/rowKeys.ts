// What Delete and Enter do on a row of the Universes view, by the row's context value: a command its menu offers.
// No vscode import, so a plain unit test checks each against the row's menus in package.json.

export interface RowKey {
  /** Run by Delete (⌘⌫ on macOS): the row's own delete, with its confirmation. */
  delete?: string;
  /** Run by Enter, where the row has no click command of its own. */
  open?: string;
}

export type RowKeys = Readonly<Record<string, RowKey>>;
