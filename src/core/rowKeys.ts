// What Delete and Enter do on a row of the Universes view, by the row's context value: a command its menu offers.
// No vscode import, so a plain unit test checks each against the row's menus in package.json.

export interface RowKey {
  /** Run by Delete (⌘⌫ on macOS): the row's own delete, with its confirmation. */
  delete?: string;
  /** Run by Enter after VS Code's own (it selects the row and does what a click does), where a click opens nothing. */
  open?: string;
}

export type RowKeys = Readonly<Record<string, RowKey>>;
