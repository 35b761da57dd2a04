// Saving an entry's document: one flow for every way a save starts. Save Entry (Ctrl+S) and the opt-in auto-save
// check first (valid JSON, size, encoding, a change made in the service meanwhile) and only then let VS Code save;
// VS Code's own saves (File > Save, Save All, saving on close) reach the same checks in the file system's
// writeFile. The write is conditioned on the version the edits are based on, and a change made meanwhile (or a
// deletion) goes to the product's own choice. A save that does not happen says so in the product's words and
// keeps the edit.
import vscode = require('vscode');
import { NotFoundError, notFoundAs, PreconditionFailedError } from '../../api';
import { confirmProductionWrite } from '../../core/confirmWrite';
import { isCancel, reason } from '../../core/errors';
import { formatBytes } from '../../core/format';
import type { Log } from '../../core/log';
import { t } from '../../core/text';
import { timeOfDay } from '../../core/time';
import { isReadOnly, ReadOnlyUniverseError, roleOf } from '../../core/universe';
import { stepDone } from '../../core/walkthrough';
import type { Ui } from '../../core/ui';
import type { EntryAddress } from './entryPath';
import { formatJson, JsonSyntaxError } from './json';
import type { EntryEditor } from './entryEditor';
import type { Base, EntryState, OpenEntries } from './openEntries';
import { addressOf, diffTitle, versionTime, versionUri } from './uris';

export const maxValueBytes = 4 * 1024 * 1024;

/** How the save started: `command` (Ctrl+S, Save Entry), `fs` (VS Code's own save), `auto` (the opt-in auto-save). */
export type SaveVia = 'command' | 'fs' | 'auto';

export type SaveOutcome =
  | { saved: true; version?: string }
  /**
   * `message` says why, in the product's words; `conflict`: the service changed meanwhile; `discarded`: the user
   * chose to drop the edit, and the document is being given the service's value; `quiet`: the user has seen why.
   */
  | { saved: false; message: string; conflict?: boolean; discarded?: boolean; quiet?: boolean };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** "Player_1" (PlayerData, scope global), as messages name an entry. */
export function describeEntry(a: EntryAddress): string {
  return t`"${a.key}" (${a.datastoreName}, scope ${a.scope})`;
}

/** Why a document's text cannot be written as it is, or its compact JSON. */
export function checkText(a: EntryAddress, text: string): { compact: string } | { problem: string } {
  let compact: string;
  try {
    compact = formatJson(text, 0);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const where = t`line ${error.line}, column ${error.column}: ${error.detail}`;
    return { problem: t`${describeEntry(a)} is not valid JSON (${where}). Fix it and save again.` };
  }
  const bytes = Buffer.byteLength(compact);
  if (bytes > maxValueBytes) {
    return {
      problem: t`${describeEntry(a)} is ${formatBytes(bytes)} (${bytes} bytes); an entry holds at most 4 MiB (${maxValueBytes} bytes). Make it smaller and save again.`,
    };
  }
  return { compact };
}

/** What a conflict asks of the user, and what the answer does. */
type Resolution = { go: true } | { go: false; outcome: SaveOutcome };

export class EntrySaver {
  /**
   * Saves started by Save Entry or the auto-save, which VS Code is about to write through the file system, with the
   * signal of the user's Cancel.
   */
  private readonly expected = new Map<string, { via: SaveVia; signal?: AbortSignal; confirmed: boolean }>();
  /** The service's side of each conflict opened with Compare, by the document it was compared with. */
  private readonly compared = new Map<string, vscode.Uri>();

  constructor(
    private readonly editor: EntryEditor,
    private readonly ui: Ui,
    private readonly log: Log,
  ) {}

  private get entries(): OpenEntries {
    return this.editor.entries;
  }

  /**
   * Before VS Code saves the document (Save Entry, the auto-save): everything that would refuse the save, and a
   * change made in the service since the edit started. Undefined: go ahead; the write then happens in the file
   * system, conditioned on the (possibly new) base.
   */
  async prepare(
    doc: vscode.TextDocument,
    via: 'command' | 'auto',
    signal?: AbortSignal,
  ): Promise<SaveOutcome | undefined> {
    const a = addressOf(doc.uri);
    return this.guard(a, async () => {
      const encoding = (doc as { encoding?: string }).encoding;
      if (encoding && !/^utf-?8(bom)?$/i.test(encoding)) return notUtf8(a);
      const checked = this.check(a, doc.getText());
      if ('problem' in checked) return { saved: false, message: checked.problem };
      const base = this.entries.base(a);
      const newest = await this.editor.model.newestVersion(a, signal);
      const moved = base
        ? !base.deleted && (!newest || newest.deleted || newest.version !== base.version)
        : !!newest && !newest.deleted;
      if (moved) {
        const resolution = await this.resolve(doc.uri, a, checked.compact, via);
        if (!resolution.go) return resolution.outcome;
      }
      const refused = await this.confirmProduction(a, via, checked.compact);
      if (refused) return refused;
      this.expected.set(doc.uri.toString(), { via, signal, confirmed: true });
      return undefined;
    });
  }

  /** The write itself (VS Code's save through the file system): checks, then the conditioned write. */
  async save(uri: vscode.Uri, content: Uint8Array, via: SaveVia = 'fs'): Promise<SaveOutcome> {
    const a = addressOf(uri);
    const expected = this.expected.get(uri.toString());
    this.expected.delete(uri.toString());
    return this.guard(a, async () => {
      let text: string;
      try {
        text = utf8.decode(content);
      } catch {
        return notUtf8(a);
      }
      const checked = this.check(a, text);
      if ('problem' in checked) return { saved: false, message: checked.problem };
      const refused = expected?.confirmed ? undefined : await this.confirmProduction(a, via, checked.compact);
      if (refused) return refused;
      return this.write(uri, a, content, checked.compact, expected?.via ?? via, expected?.signal);
    });
  }

  /** Runs a save step; a failure becomes an outcome that says what happened, logged. */
  private async guard<T extends SaveOutcome | undefined>(
    a: EntryAddress,
    step: () => Promise<T>,
  ): Promise<T | SaveOutcome> {
    try {
      const outcome = await step();
      if (outcome && !outcome.saved && !outcome.quiet) this.log.warn(`Not saved: ${outcome.message}`);
      return outcome;
    } catch (error) {
      if (isCancel(error)) return { saved: false, message: t`${describeEntry(a)} was not saved.`, quiet: true };
      const message = t`${describeEntry(a)} could not be written: ${reason(error)}. Your edit is kept; save again to retry.`;
      this.log.error(`Not saved: ${message}`);
      return { saved: false, message };
    }
  }

  /**
   * A save to a production universe asks first (declined: a cancel, and the edit stays); the auto-save never asks,
   * so it does not write there. A value the service already holds is not written, so nothing is asked for it.
   */
  private async confirmProduction(a: EntryAddress, via: SaveVia, compact: string): Promise<SaveOutcome | undefined> {
    const base = this.entries.base(a);
    if (roleOf(a) !== 'production' || (base && !base.deleted && base.compact === compact)) return undefined;
    if (via === 'auto') {
      return {
        saved: false,
        message: t`${describeEntry(a)} is in a production universe, where the auto-save does not write. Save it (Ctrl+S) to confirm the write.`,
      };
    }
    await confirmProductionWrite(
      this.ui,
      a,
      t`Save ${describeEntry(a)}?`,
      t`Save`,
      t`The service takes the new value at once; the entry's versions keep the one before.`,
    );
    return undefined;
  }

  private check(a: EntryAddress, text: string): { compact: string } | { problem: string } {
    if (isReadOnly(a)) {
      const why = new ReadOnlyUniverseError(a).message;
      return { problem: t`${why}; ${describeEntry(a)} was not saved.` };
    }
    if (this.entries.shown(a)?.deleted && !this.entries.pinned(a)) {
      return {
        problem: t`${describeEntry(a)} is deleted in the service; restore one of its versions from the Universes view.`,
      };
    }
    return checkText(a, text);
  }

  private async write(
    uri: vscode.Uri,
    a: EntryAddress,
    content: Uint8Array,
    compact: string,
    via: SaveVia,
    signal?: AbortSignal,
  ): Promise<SaveOutcome> {
    for (;;) {
      const base = this.entries.base(a);
      if (base && !base.deleted && base.compact === compact) {
        // Nothing to write: the service holds this value. After a conflict, the document now shows the service's.
        if ('text' in base) this.entries.show(a, { ...(base as EntryState), text: content });
        return { saved: true };
      }
      try {
        return this.saved(a, await this.editor.write(a, content, compact, base, signal));
      } catch (error) {
        if (!(error instanceof PreconditionFailedError || error instanceof NotFoundError)) throw error;
      }
      const resolution = await this.resolve(uri, a, compact, via);
      if (!resolution.go) return resolution.outcome;
    }
  }

  /**
   * The service changed (or deleted) the entry since the edit started: the user chooses, and nothing typed is lost.
   * `go`: write again (on the service's version now, or as a new entry). The auto-save never asks: it stops.
   */
  private async resolve(uri: vscode.Uri, a: EntryAddress, compact: string, via: SaveVia): Promise<Resolution> {
    const theirs = await this.editor.model.current(a).catch(notFoundAs(undefined));
    const deleted = !theirs || !!theirs.deleted;
    if (via === 'auto') {
      const message = deleted
        ? t`${describeEntry(a)} was deleted in the service since you opened it. Save it (Ctrl+S) to choose what to keep.`
        : t`${describeEntry(a)} was changed in the service since you opened it. Save it (Ctrl+S) to choose what to keep.`;
      return { go: false, outcome: { saved: false, conflict: true, message } };
    }
    return deleted ? this.resolveDeleted(uri, a, theirs, via) : this.resolveChanged(uri, a, theirs, compact, via);
  }

  private async resolveChanged(
    uri: vscode.Uri,
    a: EntryAddress,
    theirs: EntryState,
    compact: string,
    via: SaveVia,
  ): Promise<Resolution> {
    if (theirs.compact === compact) {
      // The service already holds this very value: the save writes nothing.
      this.entries.rebase(a, theirs);
      return { go: true };
    }
    const when = versionTime(theirs.mtime);
    const [compare, overwrite, discardAndReload] = [t`Compare`, t`Overwrite`, t`Discard and Reload`];
    const choice = await this.ui.warn(
      t`${describeEntry(a)} was changed in the service since you opened it.`,
      { modal: true, detail: t`The service now has the version of ${when}. Your edit is kept until you choose.` },
      compare,
      overwrite,
      discardAndReload,
    );
    if (choice === overwrite) {
      // Their attributes and user ids stay: only the value is ours.
      this.entries.rebase(a, theirs);
      return { go: true };
    }
    if (choice === discardAndReload) {
      this.discard(uri, a, via);
      const message = t`Your edit of ${describeEntry(a)} was discarded; it shows the service's value.`;
      return { go: false, outcome: { saved: false, quiet: true, discarded: true, message } };
    }
    if (choice === compare) {
      const theirsUri = versionUri(a, { version: theirs.version, createdTime: theirs.mtime });
      this.compared.set(uri.toString(), theirsUri);
      const title = diffTitle(a.key, t`the service's version of ${when}`, t`yours, not saved`);
      await vscode.commands.executeCommand('vscode.diff', theirsUri, uri, title);
      const message = t`${describeEntry(a)} was not saved: compare, then save again to overwrite or discard.`;
      return { go: false, outcome: { saved: false, quiet: true, message } };
    }
    const message = t`${describeEntry(a)} was not saved; it changed in the service since you opened it.`;
    return { go: false, outcome: { saved: false, quiet: true, message } };
  }

  /** `last`: the value the key held before it was deleted, which Discard shows read-only. */
  private async resolveDeleted(
    uri: vscode.Uri,
    a: EntryAddress,
    last: EntryState | undefined,
    via: SaveVia,
  ): Promise<Resolution> {
    const [recreate, discardEdit] = [t`Re-create`, t`Discard`];
    const choice = await this.ui.warn(
      t`${describeEntry(a)} was deleted in the service since you opened it.`,
      {
        modal: true,
        detail: t`Re-create writes your edit as a new entry, keeping the attributes and user ids it had. Your edit is kept until you choose.`,
      },
      recreate,
      discardEdit,
    );
    if (choice === recreate) {
      const base: Base = this.entries.base(a) ?? { version: '', attributes: {}, userIds: [] };
      this.entries.rebase(a, { ...base, deleted: true });
      return { go: true };
    }
    if (choice === discardEdit) {
      this.discard(uri, a, via, !last);
      const message = t`Your edit of ${describeEntry(a)} was discarded.`;
      return { go: false, outcome: { saved: false, quiet: true, discarded: true, message } };
    }
    const message = t`${describeEntry(a)} was not saved; it was deleted in the service.`;
    return { go: false, outcome: { saved: false, quiet: true, message } };
  }

  /**
   * The edit is dropped and the document reads the service's value again (a deleted key's last one, read-only), or
   * closes when there is nothing left to show. A dirty document is reverted; one VS Code is saving (`fs`: the save
   * goes on, writing nothing) is reloaded once VS Code is done with it. Until then its base stays pinned, so the
   * stat VS Code takes after the write is a dirty document's (time 0) and the reload's stat differs from it:
   * otherwise VS Code could keep the discarded text, now marked saved, when it already knew the service's time.
   */
  private discard(uri: vscode.Uri, a: EntryAddress, via: SaveVia, close = false): void {
    if (via !== 'fs') {
      this.entries.unpin(a);
      setTimeout(() => void revert(uri, close), 0);
      return;
    }
    const same = (doc: vscode.TextDocument) => doc.uri.toString() === uri.toString();
    const done = vscode.workspace.onDidSaveTextDocument((doc) => {
      if (!same(doc)) return;
      done.dispose();
      this.entries.unpin(a);
      if (close) void closeEditor(doc);
      else this.editor.reload(uri);
    });
    setTimeout(() => done.dispose(), 30_000);
  }

  /**
   * The document was saved: a comparison a conflict opened is over (it would show a service version that is no
   * longer the newest), so the document takes its place.
   */
  async endCompare(doc: vscode.TextDocument): Promise<void> {
    const theirs = this.compared.get(doc.uri.toString());
    if (!theirs) return;
    this.compared.delete(doc.uri.toString());
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.toString() === theirs.toString());
    if (!tabs.length) return;
    await vscode.window.showTextDocument(doc, { viewColumn: tabs[0].group.viewColumn, preview: false });
    await vscode.window.tabGroups.close(tabs);
  }

  private saved(a: EntryAddress, written: { version: string; createdTime: string }): SaveOutcome {
    this.log.info(`Saved ${a.datastoreName}/${a.scope}/${a.key} as version ${written.version}`);
    stepDone('entrySaved');
    vscode.window.setStatusBarMessage(`$(check) ${t`Saved ${a.key} at ${timeOfDay(written.createdTime)}`}`, 8000);
    return { saved: true, version: written.version };
  }
}

function notUtf8(a: EntryAddress): SaveOutcome {
  const message = t`${describeEntry(a)} is open in an encoding other than UTF-8, and entries are UTF-8 text. Reopen it with UTF-8 encoding (Reopen with Encoding), then save.`;
  return { saved: false, message };
}

async function closeEditor(doc: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}

/** Throws the document's edit away: VS Code reads the entry again (and closes the editor with `close`). */
async function revert(uri: vscode.Uri, close: boolean): Promise<void> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc) return;
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand(
    close ? 'workbench.action.revertAndCloseActiveEditor' : 'workbench.action.files.revert',
  );
}
