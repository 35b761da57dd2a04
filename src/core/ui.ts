import vscode = require('vscode');
import { withProgress, type Progress } from './progress';

/** Every prompt, pick, message and progress goes through this object, so tests can answer them. */
export interface Ui {
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
  pickMany<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
  ): Promise<T[] | undefined>;
  /**
   * A pick that also takes a typed value: `meaning(text)` says what the text stands for (shown beside it as the
   * first item), or why it is not a value. Returns the item picked or the text typed.
   */
  pickOrType<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
    meaning: (text: string) => Meaning,
  ): Promise<T | string | undefined>;
  /**
   * A pick whose list follows what is typed: `itemsFor(text, signal)` is asked again once typing pauses for
   * `delayMs` (default 250), the request before it aborted, and its items replace the list. Like `pickOrType`,
   * `meaning(text)` shows what the typed text stands for; returns the item picked or the text typed.
   */
  pickAsYouType<T extends vscode.QuickPickItem>(
    options: vscode.QuickPickOptions & { delayMs?: number },
    itemsFor: (text: string, signal: AbortSignal) => Promise<readonly T[]>,
    meaning: (text: string) => Meaning,
  ): Promise<T | string | undefined>;
  info(message: string, ...actions: string[]): Promise<string | undefined>;
  warn(
    message: string,
    options: { modal?: boolean; detail?: string },
    ...actions: string[]
  ): Promise<string | undefined>;
  error(message: string, ...actions: string[]): Promise<string | undefined>;
  saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined>;
  openDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined>;
  copy(text: string): Promise<void>;
  progress: Progress;
}

/**
 * What typed text stands for, shown as the first item of a pick-or-type: a description of the value (or
 * `{ value, detail }`, the detail on a line under it), `{ problem, detail }` saying why it is not a value (shown so
 * the person is not left with an empty list; Enter on it does nothing), or undefined to show nothing.
 */
export type Meaning = string | { value: string; detail?: string } | { problem: string; detail?: string } | undefined;

/** The value a `Meaning` stands for, or undefined when the text is not one. */
export function meantValue(means: Meaning): string | undefined {
  if (means === undefined || typeof means === 'string') return means;
  return 'value' in means ? means.value : undefined;
}

/**
 * Prompts stay open when the focus moves (a click elsewhere, a tree or walkthrough page taking the focus back as the
 * previous prompt closes): only Escape dismisses them, so nothing typed is lost on the way.
 */
const stay = <T extends { ignoreFocusOut?: boolean }>(options: T): T => ({ ignoreFocusOut: true, ...options });

export const vscodeUi: Ui = {
  input: async (options) => vscode.window.showInputBox(stay(options)),
  pick: async (items, options) => vscode.window.showQuickPick(items, stay(options)),
  pickMany: async (items, options) => vscode.window.showQuickPick(items, { ...stay(options), canPickMany: true }),
  pickOrType: (items, options, meaning) => pickOrType(items, options, meaning),
  pickAsYouType: (options, itemsFor, meaning) => pickAsYouType(options, itemsFor, meaning),
  info: async (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
  warn: async (message, options, ...actions) => vscode.window.showWarningMessage(message, options, ...actions),
  error: async (message, ...actions) => vscode.window.showErrorMessage(message, ...actions),
  saveDialog: async (options) => vscode.window.showSaveDialog(options),
  openDialog: async (options) => vscode.window.showOpenDialog(options),
  copy: async (text) => vscode.env.clipboard.writeText(text),
  progress: withProgress,
};

/**
 * The extension's one Ui: it passes every call to VS Code's, or to the Ui a test put in its place with `use`.
 * Components keep this object, so a replacement reaches all of them at once.
 */
export class SwitchableUi implements Ui {
  private target: Ui = vscodeUi;

  get current(): Ui {
    return this.target;
  }

  use(ui: Ui): void {
    this.target = ui;
  }

  input: Ui['input'] = (options) => this.target.input(options);
  pick: Ui['pick'] = (items, options) => this.target.pick(items, options);
  pickMany: Ui['pickMany'] = (items, options) => this.target.pickMany(items, options);
  pickOrType: Ui['pickOrType'] = (items, options, meaning) => this.target.pickOrType(items, options, meaning);
  pickAsYouType: Ui['pickAsYouType'] = (options, itemsFor, meaning) =>
    this.target.pickAsYouType(options, itemsFor, meaning);
  info: Ui['info'] = (message, ...actions) => this.target.info(message, ...actions);
  warn: Ui['warn'] = (message, options, ...actions) => this.target.warn(message, options, ...actions);
  error: Ui['error'] = (message, ...actions) => this.target.error(message, ...actions);
  saveDialog: Ui['saveDialog'] = (options) => this.target.saveDialog(options);
  openDialog: Ui['openDialog'] = (options) => this.target.openDialog(options);
  copy: Ui['copy'] = (text) => this.target.copy(text);
  progress: Progress = (title, task, options) => this.target.progress(title, task, options);
}

/** Thrown when the user dismisses a prompt; the command wrapper treats it as a silent cancel. */
export class UserCancelled extends Error {
  override name = 'UserCancelled';
  constructor() {
    super('Cancelled');
  }
}

/** Returns the answer, or throws UserCancelled when the prompt was dismissed. */
export function required<T>(answer: T | undefined): T {
  if (answer === undefined) throw new UserCancelled();
  return answer;
}

/** VS Code's quick pick with a first item for what is typed, when it is a value. */
function pickOrType<T extends vscode.QuickPickItem>(
  items: readonly T[],
  options: vscode.QuickPickOptions,
  meaning: (text: string) => Meaning,
): Promise<T | string | undefined> {
  // The items are all listed from the start, each one beside the typed text even when it has the same name.
  return typedQuickPick<T>(options, meaning, { sameNameStandsForTyped: false }, (_quickPick, list) => {
    list(items);
    return {};
  });
}

/** The first item of a pick that takes typed text: what the text stands for, or why it is not a value. */
function typedItems(
  value: string,
  meaning: (text: string) => Meaning,
): { typed?: vscode.QuickPickItem; problem?: vscode.QuickPickItem } {
  const text = value.trim();
  const means = text ? meaning(text) : undefined;
  const stands = meantValue(means);
  const detail = typeof means === 'object' ? means.detail : undefined;
  if (stands !== undefined) return { typed: { label: text, description: stands, detail, alwaysShow: true } };
  if (typeof means === 'object' && 'problem' in means)
    return { problem: { label: `$(warning) ${text}`, description: means.problem, detail, alwaysShow: true } };
  return {};
}

/** VS Code's quick pick, its items listed again for what is typed once typing pauses. */
function pickAsYouType<T extends vscode.QuickPickItem>(
  options: vscode.QuickPickOptions & { delayMs?: number },
  itemsFor: (text: string, signal: AbortSignal) => Promise<readonly T[]>,
  meaning: (text: string) => Meaning,
): Promise<T | string | undefined> {
  return typedQuickPick<T>(options, meaning, { sameNameStandsForTyped: true }, (quickPick, list) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let request: AbortController | undefined;
    const load = (text: string) => {
      request?.abort();
      const current = (request = new AbortController());
      quickPick.busy = true;
      void itemsFor(text, current.signal)
        .catch(() => [] as readonly T[]) // the typed text can still be taken
        .then((items) => {
          if (current !== request) return;
          quickPick.busy = false;
          list(items);
        });
    };
    load('');
    return {
      typing: (value) => {
        clearTimeout(timer);
        timer = setTimeout(() => load(value.trim()), options.delayMs ?? 250);
      },
      hidden: () => {
        clearTimeout(timer);
        request?.abort();
      },
    };
  });
}

/** What the lister of a typed pick hears: each change of the typed text, and the pick closing. */
interface Listing {
  typing?(value: string): void;
  hidden?(): void;
}

/**
 * The quick pick under `pickOrType` and `pickAsYouType`: the listed items, under a first item for what is typed (what
 * `meaning` says it stands for, or why it is not a value). Enter takes the item picked, or the typed text, and does
 * nothing on a problem; dismissing it gives undefined. `lister` lists the items (`list`, again whenever they change)
 * and hears the typing and the close. With `sameNameStandsForTyped`, a listed item named as the typed text stands
 * for it, and the typed item is not shown.
 */
function typedQuickPick<T extends vscode.QuickPickItem>(
  options: vscode.QuickPickOptions,
  meaning: (text: string) => Meaning,
  { sameNameStandsForTyped }: { sameNameStandsForTyped: boolean },
  lister: (quickPick: vscode.QuickPick<vscode.QuickPickItem>, list: (items: readonly T[]) => void) => Listing,
): Promise<T | string | undefined> {
  return new Promise((resolve) => {
    const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    let listed: readonly T[] = [];
    let first: { typed?: vscode.QuickPickItem; problem?: vscode.QuickPickItem } = {};
    let result: T | string | undefined;
    quickPick.title = options.title;
    quickPick.placeholder = options.placeHolder;
    quickPick.ignoreFocusOut = options.ignoreFocusOut ?? true;
    const show = () => {
      const shadowed = sameNameStandsForTyped && listed.some((i) => i.label === first.typed?.label);
      const top = (shadowed ? undefined : first.typed) ?? first.problem;
      quickPick.items = top ? [top, ...listed] : listed;
    };
    const listing = lister(quickPick, (items) => {
      listed = items;
      show();
    });
    // Until the list drawn for the text typed last reports its active row, an Enter picked from the list before it:
    // the text typed is what the user meant.
    let stale = false;
    quickPick.onDidChangeValue((value) => {
      first = typedItems(value, meaning);
      stale = true;
      show();
      listing.typing?.(value);
    });
    quickPick.onDidChangeActive(() => {
      stale = false;
    });
    quickPick.onDidAccept(() => {
      if (stale && (first.typed || first.problem)) {
        if (first.problem) return;
        result = first.typed!.label;
        quickPick.hide();
        return;
      }
      const [picked] = quickPick.selectedItems;
      if (!picked || picked === first.problem) return;
      result = picked === first.typed ? picked.label : (picked as T);
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      listing.hidden?.();
      quickPick.dispose();
      resolve(result);
    });
    quickPick.show();
  });
}
