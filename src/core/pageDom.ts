// What every webview page's script shares (runs in the page: DOM, no vscode).

/** The page's element with this id; a page without it is a broken build, so it throws. */
export function element<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}
