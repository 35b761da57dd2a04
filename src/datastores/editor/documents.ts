// The editor's side of open entries: it pins a document's base while the document is dirty, shows JSON problems as
// the user types, formats on request, checks on focus whether the service has a newer version, and runs the opt-in
// auto-save (valid JSON only, never a conflict dialog while typing).
import { t } from '../../core/text';
import vscode = require('vscode');
import type { Ui } from '../../core/ui';
import type { EntryAddress } from './entryPath';
import { formatJson, JsonSyntaxError } from './json';
import type { EntryEditor } from './entryEditor';
import { entryKey, type EntryState } from './openEntries';
import { checkText, describeEntry, type EntrySaver } from './save';
import { addressOf, entryLanguage, entryScheme, versionTime } from './uris';

/** At most one freshness check of a document in this time, unless a test sets another (checkEveryMs). */
const CHECK_EVERY_MS = 10_000;

const isEntry = (doc: vscode.TextDocument) => doc.uri.scheme === entryScheme;

function address(doc: vscode.TextDocument): EntryAddress | undefined {
  try {
    return addressOf(doc.uri);
  } catch {
    return undefined;
  }
}

export class EntryDocuments implements vscode.Disposable {
  private readonly problems = vscode.languages.createDiagnosticCollection('Data Store Entry');
  private readonly checked = new Map<string, number>();
  private readonly autoSaves = new Map<string, NodeJS.Timeout>();
  /** Documents whose auto-save met a change made in the service: they wait for an explicit save. */
  private readonly held = new Set<string>();
  private readonly disposables: vscode.Disposable[];
  /** The least time between two freshness checks of a document. */
  checkEveryMs = CHECK_EVERY_MS;

  constructor(
    private readonly editor: EntryEditor,
    private readonly saver: EntrySaver,
    private readonly ui: Ui,
  ) {
    this.disposables = [
      this.problems,
      vscode.workspace.onDidOpenTextDocument((doc) => this.changed(doc, true)),
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e.document)),
      vscode.workspace.onDidSaveTextDocument((doc) => this.saved(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.closed(doc)),
      editor.onDidShow((a) => this.reread(a)),
      vscode.window.onDidChangeActiveTextEditor((editor) => editor && void this.checkNewer(editor.document)),
      vscode.window.onDidChangeWindowState((state) => {
        const doc = vscode.window.activeTextEditor?.document;
        if (state.focused && doc) void this.checkNewer(doc);
      }),
      vscode.languages.registerDocumentFormattingEditProvider(entryLanguage, {
        provideDocumentFormattingEdits: (doc, options) => format(doc, options),
      }),
    ];
    for (const doc of vscode.workspace.textDocuments) this.changed(doc, true);
  }

  /** Clears the hold on auto-save after an explicit save. */
  release(uri: vscode.Uri): void {
    this.held.delete(uri.toString());
  }

  dispose(): void {
    for (const timer of this.autoSaves.values()) clearTimeout(timer);
    for (const d of this.disposables) d.dispose();
  }

  /**
   * A dirty document pins its base; a clean one lets it follow what it shows. A document just opened clean only
   * drops a pin left from an earlier window once it has read the entry here (a document restored dirty after a
   * reload may be reported clean before its edit is put back).
   */
  private changed(doc: vscode.TextDocument, opened = false): void {
    if (!isEntry(doc)) return;
    const a = address(doc);
    if (!a) return;
    const shown = this.editor.entries.shown(a);
    if (doc.isDirty) this.editor.entries.pin(a);
    else if (!opened || shown) this.editor.entries.unpin(a);
    this.diagnose(doc, shown);
    this.scheduleAutoSave(doc);
  }

  /** A clean document's notes say why it is read-only (deleted, not JSON); a dirty one's, what is wrong with its JSON. */
  private diagnose(doc: vscode.TextDocument, shown: EntryState | undefined): void {
    this.problems.set(doc.uri, shown && !doc.isDirty ? notes(doc, shown) : problemsOf(doc));
  }

  /**
   * The entry was read or written anew: its open documents' notes follow (an entry undeleted from the tree reads back
   * the same text, so VS Code reports no change of the document).
   */
  private reread(a: EntryAddress): void {
    const shown = this.editor.entries.shown(a);
    const key = entryKey(a);
    for (const doc of vscode.workspace.textDocuments) {
      const open = isEntry(doc) && address(doc);
      if (open && entryKey(open) === key) this.diagnose(doc, shown);
    }
  }

  private saved(doc: vscode.TextDocument): void {
    const a = isEntry(doc) && address(doc);
    if (!a) return;
    if (doc.isDirty) this.editor.entries.pin(a);
    this.held.delete(doc.uri.toString());
    void this.saver.endCompare(doc);
  }

  private closed(doc: vscode.TextDocument): void {
    const a = isEntry(doc) && address(doc);
    if (!a) return;
    this.problems.delete(doc.uri);
    this.editor.entries.forget(a);
    this.checked.delete(doc.uri.toString());
  }

  /**
   * An entry's editor came to the front: when the service has a newer version than it shows (a cheap check, at
   * most every 10 s), a clean document reloads; a dirty one keeps its edit and the status bar says what a save does.
   */
  private async checkNewer(doc: vscode.TextDocument): Promise<void> {
    const a = isEntry(doc) && address(doc);
    const shown = a && this.editor.entries.shown(a);
    if (!a || !shown) return;
    const key = doc.uri.toString();
    if (Date.now() - (this.checked.get(key) ?? 0) < this.checkEveryMs) return;
    this.checked.set(key, Date.now());
    const newest = await this.editor.model.newestVersion(a).catch(() => undefined);
    if (!newest || newest.version === shown.version || (newest.deleted && shown.deleted)) return;
    if (!doc.isDirty) {
      this.editor.reload(doc.uri);
      const said = newest.deleted
        ? t`${describeEntry(a)} was deleted in the service; its last value is shown, read-only.`
        : t`${describeEntry(a)} was changed in the service; it now shows the version of ${versionTime(newest.createdTime)}.`;
      void this.ui.info(said);
    } else {
      const said = newest.deleted
        ? t`${a.key} was deleted in the service; saving will ask what to keep`
        : t`${a.key} has a newer version in the service; saving will ask what to keep`;
      vscode.window.setStatusBarMessage(`$(warning) ${said}`, 15_000);
    }
  }

  /** The opt-in auto-save: after a pause in typing, a dirty document holding valid JSON is saved. */
  private scheduleAutoSave(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    clearTimeout(this.autoSaves.get(key));
    this.autoSaves.delete(key);
    if (
      !doc.isDirty ||
      this.held.has(key) ||
      !vscode.workspace.getConfiguration('universeExplorer').get<boolean>('entries.autoSave', false)
    )
      return;
    const delay = vscode.workspace.getConfiguration('files').get<number>('autoSaveDelay', 1000);
    this.autoSaves.set(
      key,
      setTimeout(() => {
        this.autoSaves.delete(key);
        void this.autoSave(doc);
      }, delay),
    );
  }

  private async autoSave(doc: vscode.TextDocument): Promise<void> {
    const a = address(doc);
    if (!a || doc.isClosed || !doc.isDirty || 'problem' in checkText(a, doc.getText())) return;
    const outcome = await this.saver.prepare(doc, 'auto');
    if (!outcome) {
      await doc.save();
      return;
    }
    if (!outcome.saved && outcome.conflict) {
      this.held.add(doc.uri.toString());
      void this.ui.warn(t`Not saved: ${outcome.message}`, {});
    }
    // Other refusals (the typing will fix them, or the connection is back later) wait for the next pause.
  }
}

/** The JSON problem of an entry's text, where it is, as the editor underlines it. */
function problemsOf(doc: vscode.TextDocument): vscode.Diagnostic[] {
  const text = doc.getText();
  if (text.trim() === '') return [];
  try {
    formatJson(text, 0);
    return [];
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) return [];
    const at = new vscode.Position(error.line - 1, Math.max(0, error.column - 1));
    const range = doc.getWordRangeAtPosition(at) ?? new vscode.Range(at, at.translate(0, 1));
    const problem = new vscode.Diagnostic(
      range,
      t`${error.detail} (an entry must be valid JSON to be saved)`,
      vscode.DiagnosticSeverity.Error,
    );
    problem.source = t`Data Store Entry`;
    return [problem];
  }
}

/** Why an entry opened read-only: it is deleted (its last value is shown), or it holds text that is not JSON. */
function notes(doc: vscode.TextDocument, shown: EntryState): vscode.Diagnostic[] {
  const why = shown.deleted
    ? t`Deleted in the service: this is its last value, read-only. Its versions are kept for 30 days; restore one from the Universes view.`
    : shown.compact === undefined
      ? t`The service holds text that is not JSON here (another writer stored it). It is shown as it is, read-only.`
      : undefined;
  if (!why) return problemsOf(doc);
  const note = new vscode.Diagnostic(
    new vscode.Range(0, 0, 0, Math.min(doc.lineAt(0).text.length, 1)),
    why,
    vscode.DiagnosticSeverity.Information,
  );
  note.source = t`Data Store Entry`;
  return [note];
}

/** Format Document: the value laid out with the editor's indentation, literals kept exactly. */
function format(doc: vscode.TextDocument, options: vscode.FormattingOptions): vscode.TextEdit[] {
  try {
    const text = formatJson(doc.getText(), options.insertSpaces ? options.tabSize : 1);
    const tabbed = options.insertSpaces ? text : text.replace(/^ +/gm, (s) => '\t'.repeat(s.length));
    return [vscode.TextEdit.replace(new vscode.Range(0, 0, doc.lineCount, 0), tabbed + '\n')];
  } catch {
    return [];
  }
}
