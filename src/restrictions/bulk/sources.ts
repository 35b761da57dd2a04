// Where the users of a bulk ban come from: ids handed over by another view (a query's results, log rows, a player
// page), the clipboard, ids typed, a text or CSV file, or the editor in front (its selection, else all of it). Each
// source is read by the client's parseBanList, which reports every line it cannot use.
import vscode = require('vscode');
import { parseBanList, type BanList } from '../../api';
import { t } from '../../core/text';
import { required, type Ui } from '../../core/ui';

/** The most text read from a source: a list of a million ids is about 10 MB. */
const MOST_BYTES = 20 * 1024 * 1024;

export interface UserList {
  list: BanList;
  /** Where the list came from, in words (`the clipboard`, `raid.csv`). */
  source: string;
}

/** `{ userIds: [...] }` or `{ text }` from another view (any value can arrive); undefined when neither. */
export function givenList(arg: unknown): UserList | undefined {
  const a = arg as { userIds?: unknown; text?: unknown; source?: unknown } | null | undefined;
  const source = typeof a?.source === 'string' && a.source ? a.source : t`the users chosen`;
  if (Array.isArray(a?.userIds)) return { list: parseBanList(a.userIds.map(String).join('\n')), source };
  if (typeof a?.text === 'string') return { list: parseBanList(a.text), source };
  return undefined;
}

const countIds = (text: string): number => parseBanList(text).rows.length;

function sayCount(n: number): string {
  return n === 1 ? t`1 user id` : t`${n} user ids`;
}

/** Asks where the users come from and reads them. Throws when the source names no user it can use. */
export async function pickList(ui: Ui, title: string): Promise<UserList> {
  const editor = vscode.window.activeTextEditor;
  const editorText =
    editor && (editor.selection.isEmpty ? editor.document.getText() : editor.document.getText(editor.selection));
  type Item = vscode.QuickPickItem & { from: 'clipboard' | 'type' | 'file' | 'editor' };
  // The clipboard is read only when chosen: a browser asks the user's leave for each read.
  const items: Item[] = [
    { label: t`$(clippy) Paste from the Clipboard`, description: t`ids copied from anywhere`, from: 'clipboard' },
    { label: t`$(edit) Type User Ids…`, description: t`separated by spaces or commas`, from: 'type' },
    {
      label: t`$(file) From a Text or CSV File…`,
      description: t`one id a line, or columns userId, duration, displayReason, privateReason, excludeAltAccounts`,
      from: 'file',
    },
  ];
  if (editor && editorText?.trim()) {
    const n = countIds(editorText);
    items.push({
      label: editor.selection.isEmpty ? t`$(go-to-file) The Active Editor` : t`$(selection) The Selection`,
      description: t`${vscode.workspace.asRelativePath(editor.document.uri)}: ${sayCount(n)}`,
      from: 'editor',
    });
  }
  const picked = required(await ui.pick(items, { title, placeHolder: t`Where are the users?` }));
  switch (picked.from) {
    case 'clipboard': {
      const text = await readClipboard();
      if (!text.trim())
        throw new Error(
          t`the clipboard holds nothing (a browser may not allow reading it): paste the ids into an editor and use The Active Editor`,
        );
      return nonEmpty({ list: parseBanList(text), source: t`the clipboard` });
    }
    case 'editor':
      return nonEmpty({
        list: parseBanList(editorText ?? ''),
        source: vscode.workspace.asRelativePath(editor!.document.uri),
      });
    case 'type': {
      const text = required(
        await ui.input({
          title,
          prompt: t`User ids, separated by spaces or commas`,
          validateInput: (v) => {
            const list = parseBanList(v);
            if (!v.trim()) return undefined;
            if (list.problems.length) return `${list.problems[0].text}: ${list.problems[0].reason}`;
            return undefined;
          },
        }),
      );
      return nonEmpty({ list: parseBanList(text), source: t`the ids typed` });
    }
    case 'file':
      return readFile(ui, title);
  }
}

/** The clipboard's text; in a browser that does not allow the read, an error saying what to use instead. */
async function readClipboard(): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refused = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            t`the clipboard cannot be read here (the browser did not allow it): paste the ids into an editor and use The Active Editor`,
          ),
        ),
      15_000,
    );
  });
  try {
    return (await Promise.race([vscode.env.clipboard.readText(), refused])).slice(0, MOST_BYTES);
  } finally {
    clearTimeout(timer);
  }
}

async function readFile(ui: Ui, title: string): Promise<UserList> {
  const [uri] = required(
    await ui.openDialog({
      title,
      openLabel: t`Use This List`,
      canSelectMany: false,
      filters: { [t`Lists`]: ['csv', 'txt', 'tsv'], [t`All files`]: ['*'] },
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    }),
  );
  const name = vscode.workspace.asRelativePath(uri);
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > MOST_BYTES)
    throw new Error(t`${name} is ${Math.round(stat.size / 1048576)} MB: a list holds at most 20 MB; split it`);
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  return nonEmpty({ list: parseBanList(text), source: name });
}

/** The list, or an error saying why none of it can be used. */
export function nonEmpty(found: UserList): UserList {
  if (found.list.rows.length) return found;
  const first = found.list.problems[0];
  throw new Error(
    first
      ? t`${found.source} names no user that can be used: line ${first.line}, ${first.reason} (${first.text})`
      : t`${found.source} names no user`,
  );
}
