// Completions in query documents: the entries table's columns, a few DuckDB JSON operators and functions, and the
// JSON fields seen in the universe's index (after `value->>'` their paths, elsewhere `value->>'<path>'`). DuckDB is
// opened only when a document of a universe with an index file asks, and the fields are kept until the next build.
import vscode = require('vscode');
import type { Log } from '../core/log';
import { t } from '../core/text';
import { ENTRIES_COLUMNS, fieldName, jsonPathOf, type JsonField, type JsonFields } from '../query';
import { universeOfText } from './document';
import type { QueryIndexes } from './indexes';

/** Typed after these, a field path, an operator, or nothing. */
export const TRIGGERS = ["'", '-', '>'];

/**
 * Inside the string of `value->>'…'` (or `value->'a'->>'…'`, `json_extract(value, '…')`): the names before it in the
 * chain, and what is typed in the string so far (quotes doubled as in SQL).
 */
const IN_CHAIN = /\bvalue((?:\s*->>?\s*'(?:[^']|'')*')*)\s*->>?\s*'((?:[^']|'')*)$/i;
const IN_EXTRACT = /\bjson_extract(?:_string)?\s*\(\s*value\s*,\s*'((?:[^']|'')*)$/i;
/** Right after `value` or `attributes`, maybe with `-` or `->` typed: the JSON operators. */
const AT_OPERATOR = /\b(?:value|attributes)\s*(->?)?$/i;

interface FieldsAt {
  /** The names the chain went through (`value->'inventory'->>'` is inside inventory). */
  within: string[];
  typed: string;
}

/** Where the cursor is in a line's text before it: in a comment, a string, a field path, or plain SQL. */
export function contextOf(before: string): 'comment' | 'string' | FieldsAt | 'operator' | 'sql' {
  // Outside a string, `--` starts a comment; an odd number of quotes means the cursor is in a string.
  let quotes = 0;
  for (let i = 0; i < before.length; i++) {
    if (before[i] === "'") quotes++;
    else if (quotes % 2 === 0 && before.startsWith('--', i)) return 'comment';
  }
  const chain = IN_CHAIN.exec(before);
  if (chain) {
    const steps = [...chain[1].matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'"));
    // A step written as a path ($.a.b, /a/b) is not followed.
    if (steps.some((s) => /^[$/]/.test(s))) return 'string';
    return { within: steps, typed: chain[2] };
  }
  const extract = IN_EXTRACT.exec(before);
  if (extract) return { within: [], typed: extract[1] };
  if (quotes % 2) return 'string';
  return AT_OPERATOR.test(before) ? 'operator' : 'sql';
}

const COLUMN_DOCS: Record<string, () => string> = {
  store: () => t`The data store's name.`,
  scope: () => t`The entry's scope ("global" unless the store uses scopes).`,
  key: () => t`The entry's key.`,
  version: () => t`The version the index holds.`,
  created_time: () => t`When the key was created (UTC).`,
  updated_time: () => t`When the version the index holds was written (UTC).`,
  user_ids: () => t`The user ids the entry names: list_contains(user_ids, 2001).`,
  attributes: () => t`The entry's attributes (JSON): attributes->>'name'.`,
  value: () => t`The entry's value (JSON): value->>'coins' is a field as text, value->'inventory' as JSON.`,
  not_json: () => t`The value was stored as plain text, not JSON; value holds it as a JSON string.`,
};

function snippet(
  label: string,
  kind: vscode.CompletionItemKind,
  body: string,
  detail: string,
  doc: string,
): vscode.CompletionItem {
  const item = new vscode.CompletionItem(label, kind);
  item.insertText = new vscode.SnippetString(body);
  item.detail = detail;
  item.documentation = doc;
  return item;
}

/** The table, its columns and the functions users need; the same for every document. */
function sqlItems(): vscode.CompletionItem[] {
  const K = vscode.CompletionItemKind;
  const entries = new vscode.CompletionItem('entries', K.Struct);
  entries.detail = t`table: one row per indexed entry`;
  const info = new vscode.CompletionItem('index_info', K.Struct);
  info.detail = t`table: what is indexed, one row per build`;
  const columns = ENTRIES_COLUMNS.map(([name, type]) => {
    const item = new vscode.CompletionItem(name, K.Field);
    item.detail = type;
    item.documentation = COLUMN_DOCS[name]();
    item.sortText = `0${name}`;
    return item;
  });
  return [
    entries,
    info,
    ...columns,
    snippet(
      'json_extract',
      K.Function,
      "json_extract(${1:value}, '${2:\\$.path}')",
      'json_extract(json, path) → JSON',
      t`The JSON at a path: json_extract(value, '$.inventory.sword').`,
    ),
    snippet(
      'json_extract_string',
      K.Function,
      "json_extract_string(${1:value}, '${2:\\$.path}')",
      'json_extract_string(json, path) → VARCHAR',
      t`The text at a path, as value->>'…' gives it.`,
    ),
    snippet(
      'list_contains',
      K.Function,
      'list_contains(${1:user_ids}, ${2:2001})',
      'list_contains(list, element) → BOOLEAN',
      t`Whether a list holds an element: list_contains(user_ids, 2001).`,
    ),
  ];
}

/** `->>` and `->`, replacing the `-` or `->` typed. */
function operatorItems(before: string, position: vscode.Position): vscode.CompletionItem[] {
  const typed = AT_OPERATOR.exec(before)?.[1] ?? '';
  const range = new vscode.Range(position.translate(0, -typed.length), position);
  const items: [string, string][] = [
    ['->>', t`The field as text: value->>'coins'. Cast it to compare numbers: CAST(value->>'coins' AS INTEGER).`],
    ['->', t`The field as JSON: value->'inventory'.`],
  ];
  return items.map(([op, doc], i) => {
    const item = snippet(op, vscode.CompletionItemKind.Operator, `${op}'$1'`, t`JSON operator`, doc);
    item.range = range;
    item.filterText = op;
    item.sortText = String(i);
    return item;
  });
}

function fieldDetail(field: JsonField, fields: JsonFields): { detail: string; documentation: string } {
  return {
    detail: field.types.join(' | '),
    documentation: t`Seen in ${field.entries.toLocaleString()} of ${fields.sampled.toLocaleString()} entries looked at.`,
  };
}

/** The fields under `within`, as paths relative to it, replacing what is typed in the string. */
function pathItems(fields: JsonFields, at: FieldsAt, position: vscode.Position): vscode.CompletionItem[] {
  const range = new vscode.Range(position.translate(0, -at.typed.length), position);
  const asPath = at.typed.startsWith('$');
  const items: vscode.CompletionItem[] = [];
  for (const field of fields.fields) {
    const { path } = field;
    if (path.length <= at.within.length || at.within.some((name, i) => path[i] !== name)) continue;
    const rest = path.slice(at.within.length);
    const text = jsonPathOf(rest).replace(/'/g, "''");
    const item = new vscode.CompletionItem(fieldName(rest), vscode.CompletionItemKind.Field);
    Object.assign(item, fieldDetail(field, fields));
    item.insertText = text;
    item.filterText = asPath ? text : fieldName(rest);
    item.range = range;
    item.sortText = String(items.length).padStart(4, '0');
    items.push(item);
  }
  return items;
}

/** In plain SQL: each field as `value->>'<path>'`. */
function fieldItems(fields: JsonFields): vscode.CompletionItem[] {
  return fields.fields.map((field, i) => {
    const name = fieldName(field.path);
    const text = `value->>'${jsonPathOf(field.path).replace(/'/g, "''")}'`;
    const item = new vscode.CompletionItem({ label: name, description: text }, vscode.CompletionItemKind.Field);
    Object.assign(item, fieldDetail(field, fields));
    item.insertText = text;
    item.filterText = name;
    item.sortText = `1${String(i).padStart(4, '0')}`;
    return item;
  });
}

export class QueryCompletions implements vscode.CompletionItemProvider {
  constructor(
    private readonly indexes: QueryIndexes,
    private readonly log: Log,
  ) {}

  async provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
    context: vscode.CompletionContext,
  ): Promise<vscode.CompletionItem[] | undefined> {
    if (position.line === 0) return undefined; // the universe line
    const before = document.lineAt(position.line).text.slice(0, position.character);
    const at = contextOf(before);
    if (at === 'comment' || at === 'string') return undefined;
    if (at === 'operator') return operatorItems(before, position);
    const typedTrigger = context.triggerKind === vscode.CompletionTriggerKind.TriggerCharacter;
    if (typeof at === 'object') {
      const fields = await this.fieldsOf(document, token);
      return fields && pathItems(fields, at, position);
    }
    // A trigger character typed in plain SQL (a minus, a comparison) asks for nothing.
    if (typedTrigger) return undefined;
    const fields = await this.fieldsOf(document, token);
    return [...sqlItems(), ...(fields ? fieldItems(fields) : [])];
  }

  /** The fields of the document's universe, when it has an index; none when asked to stop. */
  private async fieldsOf(
    document: vscode.TextDocument,
    token: vscode.CancellationToken,
  ): Promise<JsonFields | undefined> {
    const u = universeOfText(document.lineAt(0).text);
    if (!u || !this.indexes.connections.get(u.connectionId)) return undefined;
    const read = this.indexes.fields(u).catch((error: unknown) => {
      this.log.warn(`Query completions: the JSON fields could not be read: ${(error as Error).message}`);
      return undefined;
    });
    // The read goes on for the next request when this one is given up (typing on).
    const stopped = new Promise<undefined>((resolve) => token.onCancellationRequested(() => resolve(undefined)));
    return Promise.race([read, stopped]);
  }
}
