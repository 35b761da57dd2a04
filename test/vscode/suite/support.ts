import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { withProgress, type Progress } from '../../../src/core/progress';
import type { TreeNode } from '../../../src/core/tree/node';
import type { UniverseTree } from '../../../src/core/tree/provider';
import type { ReviewPanel } from '../../../src/core/review/panel';
import { meantValue, type Meaning, type Ui } from '../../../src/core/ui';
import type { EntryNode, VersionNode } from '../../../src/datastores/tree';
import type { ExtensionApi } from '../../../src/extension';

export const extensionId = 'universe-explorer.universe-explorer';

export const label = (n: TreeNode) => String(n.item().label);
// The suites are bundled apart from the extension, so its classes differ: nodes are told apart by their contextValue.
export const kind = (n: TreeNode | undefined) => String(n?.item().contextValue ?? '');
export const isEntry = (n: TreeNode): n is EntryNode => kind(n).startsWith('entry');
export const isVersion = (n: TreeNode): n is VersionNode => kind(n).startsWith('version');

/** The child of `parent` (a root when undefined) labelled `name`; fails naming the labels there are. */
export async function treeChild(tree: UniverseTree, parent: TreeNode | undefined, name: string): Promise<TreeNode> {
  const children = await tree.getChildren(parent);
  const node = children.find((n) => label(n) === name);
  assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
  return node;
}

/** The row labelled `name` under the first universe of the connection labelled `connection`. */
export async function universeChild(tree: UniverseTree, connection: string, name: string): Promise<TreeNode> {
  const [universe] = await tree.getChildren(await treeChild(tree, undefined, connection));
  return treeChild(tree, universe, name);
}

export async function extensionApi(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(extensionId);
  if (!ext) throw new Error(`${extensionId} is not installed in this VS Code`);
  return ext.activate();
}

type Kind = 'input' | 'pick' | 'pickMany' | 'info' | 'warn' | 'error' | 'saveDialog' | 'openDialog';

export interface Prompt {
  kind: Kind;
  text: string;
}

interface Rule {
  kind: Kind;
  match: RegExp;
  answer: unknown;
  once: boolean;
}

/**
 * A Ui that answers from rules given by the test and records every prompt and message. A prompt that no rule
 * matches is answered as a cancel, and recorded, so a test sees what it forgot to answer.
 */
export class ScriptedUi implements Ui {
  readonly prompts: Prompt[] = [];
  readonly copied: string[] = [];
  /** What each typed answer of a pick-or-type was shown to mean. */
  readonly meanings: { text: string; means: Meaning }[] = [];
  /** What each pick-as-you-type listed for the text typed. */
  readonly listed: { text: string; labels: string[] }[] = [];
  /** VS Code's notification unless a test replaces it (to cancel, or to see the titles). */
  progress: Progress = withProgress;
  private rules: Rule[] = [];

  /** `answer`: a string for inputs and message buttons, a label (string) for picks, a Uri for dialogs. */
  on(kind: Kind, match: RegExp, answer: unknown, once = true): this {
    this.rules.push({ kind, match, answer, once });
    return this;
  }

  messages(kind: 'info' | 'warn' | 'error'): string[] {
    return this.prompts.filter((p) => p.kind === kind).map((p) => p.text);
  }

  private answer(kind: Kind, text: string): unknown {
    this.prompts.push({ kind, text });
    const i = this.rules.findIndex((r) => r.kind === kind && r.match.test(text));
    if (i < 0) return undefined;
    const rule = this.rules[i];
    if (rule.once) this.rules.splice(i, 1);
    return rule.answer;
  }

  async input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    const answer = this.answer('input', `${options.title ?? ''} ${options.prompt ?? ''}`) as string | undefined;
    if (answer === undefined) return undefined;
    const problem = await options.validateInput?.(answer);
    if (problem)
      throw new Error(`ScriptedUi: input "${answer}" for "${options.title}" was refused: ${JSON.stringify(problem)}`);
    return answer;
  }

  async pick<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
  ): Promise<T | undefined> {
    const label = this.answer('pick', `${options.title ?? ''} ${options.placeHolder ?? ''}`) as string | undefined;
    if (label === undefined) return undefined;
    const item = items.find((i) => i.label === label);
    if (!item) throw new Error(`ScriptedUi: no item "${label}" in ${items.map((i) => i.label).join(', ')}`);
    return item;
  }

  /** The answer is an item's label, or a typed value (which `meaning` must accept). */
  async pickOrType<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
    meaning: (text: string) => Meaning,
  ): Promise<T | string | undefined> {
    const text = this.answer('pick', `${options.title ?? ''} ${options.placeHolder ?? ''}`) as string | undefined;
    if (text === undefined) return undefined;
    const item = items.find((i) => i.label === text);
    if (item) return item;
    return this.typed(text, meaning);
  }

  /** Typed text that is no item: `meaning` must take it as a value. */
  private typed(text: string, meaning: (text: string) => Meaning): string {
    const means = meaning(text);
    this.meanings.push({ text, means });
    if (meantValue(means) === undefined)
      throw new Error(`ScriptedUi: "${text}" is neither an item nor a value: ${JSON.stringify(means)}`);
    return text;
  }

  /**
   * The answer is typed: a string (an item of that label among those listed for it, or a value `meaning` accepts), or
   * `{ type, pick }`: the items listed for the text typed, and the label of the one picked. Records what was listed.
   */
  async pickAsYouType<T extends vscode.QuickPickItem>(
    options: vscode.QuickPickOptions,
    itemsFor: (text: string, signal: AbortSignal) => Promise<readonly T[]>,
    meaning: (text: string) => Meaning,
  ): Promise<T | string | undefined> {
    const answer = this.answer('pick', `${options.title ?? ''} ${options.placeHolder ?? ''}`) as
      string | { type: string; pick: string } | undefined;
    if (answer === undefined) return undefined;
    const [text, label] = typeof answer === 'string' ? [answer, answer] : [answer.type, answer.pick];
    // As VS Code's: a listing that fails lists nothing, and the text typed can still be taken.
    const items = await itemsFor(text, new AbortController().signal).catch(() => [] as readonly T[]);
    this.listed.push({ text, labels: items.map((i) => i.label) });
    const item = items.find((i) => i.label === label);
    if (item) return item;
    if (typeof answer !== 'string')
      throw new Error(`ScriptedUi: no item "${label}" listed for "${text}": ${items.map((i) => i.label).join(', ')}`);
    return this.typed(text, meaning);
  }

  async pickMany<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
  ): Promise<T[] | undefined> {
    const labels = this.answer('pickMany', `${options.title ?? ''} ${options.placeHolder ?? ''}`) as
      string[] | undefined;
    return labels && items.filter((i) => labels.includes(i.label));
  }

  async info(message: string): Promise<string | undefined> {
    return this.answer('info', message) as string | undefined;
  }

  async warn(message: string): Promise<string | undefined> {
    return this.answer('warn', message) as string | undefined;
  }

  async error(message: string): Promise<string | undefined> {
    return this.answer('error', message) as string | undefined;
  }

  async saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    return this.answer('saveDialog', options.title ?? '') as vscode.Uri | undefined;
  }

  async openDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    return this.answer('openDialog', options.title ?? '') as vscode.Uri[] | undefined;
  }

  async copy(text: string): Promise<void> {
    this.copied.push(text);
  }
}

/** Polls until `check` returns a value that is not undefined/false, or fails after `ms`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 10000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens a document in a kept (not preview) editor. */
export async function openEditor(uri: vscode.Uri): Promise<vscode.TextEditor> {
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
}

/** Replaces the editor's whole text, as typing over it would. */
export async function replaceText(editor: vscode.TextEditor, text: string): Promise<void> {
  const doc = editor.document;
  if (!(await editor.edit((b) => b.replace(new vscode.Range(0, 0, doc.lineCount, 0), text)))) {
    throw new Error(`the edit of ${doc.uri.path} was refused`);
  }
}

/** The counts a review panel shows, by kind (those above 0). */
export const reviewCounts = (panel: ReviewPanel): Record<string, number> =>
  Object.fromEntries(panel.state.kinds.filter((k) => k.count).map((k) => [k.id, k.count]));

/** Presses Apply in a review and waits for the run; returns the result's counts. */
export async function applyReview(review: { panel: ReviewPanel } | undefined): Promise<Record<string, number>> {
  if (!review) throw new Error('no review opened');
  await review.panel.receive({ type: 'button', id: 'apply' });
  return reviewCounts(review.panel);
}

/** Puts back every dirty document (no save) and closes every editor: what a test left open goes. */
export async function revertAndCloseAll(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
