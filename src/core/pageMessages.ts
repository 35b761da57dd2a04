// What every webview page's message checks share (no vscode, no DOM: host and page both import it).

/** Rows a page asks for at most at once. */
export const MAX_WINDOW = 500;

/** A whole number a message may carry as an index, a count or a generation. */
export const isIndex = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
