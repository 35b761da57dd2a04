// Every string a user reads goes through `t`, which VS Code's l10n translates when the display language has a
// bundle (l10n/bundle.l10n.<language>.json; l10n/bundle.l10n.json lists the English messages, made by npm run l10n).
// No vscode import, so pure modules use it too: extension.ts hands it vscode.l10n.t, and plain Node (unit tests)
// reads English.

type Translate = (message: string, ...args: string[]) => string;

/** What vscode.l10n.t does without a bundle: `{0}`, `{1}`… are the values, in order. */
const english: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, i: string) => args[Number(i)] ?? whole);

let translate: Translate = english;

/** A translator from a loaded bundle (message → translation), for a webview page that vscode.l10n does not reach. */
export function fromBundle(bundle: Readonly<Record<string, string>>): Translate {
  return (message, ...args) => english(Object.hasOwn(bundle, message) ? bundle[message] : message, ...args);
}

/** Sets the translator (without one: English again). */
export function useTranslator(next: Translate = english): void {
  translate = next;
}

/** The message a template stands for: its literal parts, with `{0}`, `{1}`… where its values go. */
export function messageOf(parts: readonly string[]): string {
  return parts.reduce((message, part, i) => (i === 0 ? part : `${message}{${i - 1}}${part}`), '');
}

/** t`Deleted "${key}" from ${store}.` looks up `Deleted "{0}" from {1}.` and puts the values in. */
export function t(parts: TemplateStringsArray, ...values: unknown[]): string {
  return translate(messageOf(parts), ...values.map(String));
}
