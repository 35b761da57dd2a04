// The prompts every area uses: input checks, the connection's own fields, and which connection or universe a
// command run from the palette acts on.
import type { Connection, Connections, ListedUniverse } from './connections';
import { checkBaseUrl, formatUniverses, parseUniverses, type UniverseEntry } from './format';
import { settings } from './settings';
import { t } from './text';
import { UniverseNode } from './tree/connectionNodes';
import { required, type Ui } from './ui';
import type { UniverseAddress } from './universe';

/** An input box check from a function that throws with the reason. */
export function validator(check: (value: string) => unknown) {
  return (value: string): string | undefined => {
    try {
      check(value);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
}

export async function askName(ui: Ui, value = ''): Promise<string> {
  const name = await ui.input({
    title: t`Connection name`,
    value,
    prompt: t`A name to show in the Universes view`,
    validateInput: (v) => (v.trim() ? undefined : t`Enter a name.`),
  });
  return required(name).trim();
}

export async function askBaseUrl(ui: Ui, value = 'https://apis.roblox.com'): Promise<string> {
  const url = await ui.input({
    title: t`Base URL`,
    value,
    prompt: t`The address of the Open API, without a path`,
    validateInput: (v) => checkBaseUrl(v, settings().allowInsecureHttp),
  });
  return required(url).trim().replace(/\/+$/, '');
}

export async function askApiKey(ui: Ui): Promise<string> {
  const key = await ui.input({
    title: t`API key`,
    password: true,
    prompt: t`Kept in VS Code Secret Storage only`,
    validateInput: (v) => (v.trim() ? undefined : t`Enter the API key.`),
  });
  return required(key).trim();
}

export async function askPrefix(ui: Ui, value = 'platform'): Promise<string> {
  const prefix = await ui.input({
    title: t`Entry header prefix`,
    value,
    prompt: t`The word before -entry-version in data store headers`,
    validateInput: (v) => (/^[A-Za-z0-9]+$/.test(v.trim()) ? undefined : t`Use letters and digits only.`),
  });
  // Header names are lower case on the wire.
  return required(prefix).trim().toLowerCase();
}

/** The data stores API of a connection: cloud v2 unless the user picks v1. */
export async function askDataStoresApi(ui: Ui, value: 'v1' | 'v2' = 'v2'): Promise<'v1' | 'v2'> {
  const items = [
    {
      label: t`Cloud v2`,
      description: t`the service's stable API: snapshots, store delete and undelete, reads at a time`,
      api: 'v2' as const,
    },
    { label: t`v1 (legacy)`, description: t`the older data stores API`, api: 'v1' as const },
  ];
  const picked = required(
    await ui.pick(
      items.map((i) => ({ ...i, picked: i.api === value })),
      { title: t`Data stores API`, placeHolder: t`Which data stores API this connection speaks` },
    ),
  );
  return picked.api;
}

export async function askUniverses(ui: Ui, value: readonly UniverseEntry[] = []): Promise<UniverseEntry[]> {
  const text = await ui.input({
    title: t`Universes`,
    value: formatUniverses(value),
    prompt: t`Universe ids separated by commas, each optionally "= name", e.g. 123456 = My Game, 789`,
    validateInput: validator(parseUniverses),
  });
  return parseUniverses(required(text));
}

/** The connection of the command, or one picked from the list (the only one when there is one). */
export async function pickConnection(ui: Ui, connections: Connections, savedOnly = false): Promise<Connection> {
  const all = connections.list().filter((c) => !savedOnly || !c.sandbox);
  if (all.length === 0) throw new Error(t`there are no connections yet; add one first`);
  if (all.length === 1) return all[0];
  const picked = await ui.pick(
    all.map((c) => ({ label: c.name, description: c.baseUrl, connection: c })),
    { title: t`Connection` },
  );
  return required(picked).connection;
}

/** A universe of the connection: the only one, or one picked. */
export async function pickUniverse(ui: Ui, connection: Connection): Promise<ListedUniverse> {
  const universes = connection.universes;
  if (universes.length === 0) throw new Error(t`"${connection.name}" has no universe yet; add one first`);
  if (universes.length === 1) return universes[0];
  const picked = await ui.pick(
    universes.map((u) => ({ label: u.name ?? t`Universe ${u.id}`, description: String(u.id), universe: u })),
    { title: t`Universe of ${connection.name}` },
  );
  return required(picked).universe;
}

const isAddress = (v: unknown): v is UniverseAddress =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as UniverseAddress).connectionId === 'string' &&
  Number.isSafeInteger((v as UniverseAddress).universeId);

/**
 * The universe a command acts on: the row's (a universe row, or any group row of one, which has `ref`), an address
 * given as the argument, or one picked.
 */
export async function universeFrom(ui: Ui, connections: Connections, node: unknown): Promise<UniverseAddress> {
  if (node instanceof UniverseNode) return { connectionId: node.connectionId, universeId: node.universe.id };
  if (isAddress(node)) return { connectionId: node.connectionId, universeId: node.universeId };
  const ref = (node as { ref?: unknown } | undefined)?.ref;
  if (isAddress(ref)) return { connectionId: ref.connectionId, universeId: ref.universeId };
  const connection = await pickConnection(ui, connections);
  return { connectionId: connection.id, universeId: (await pickUniverse(ui, connection)).id };
}

/** A user id typed: a positive whole number. */
export async function askUserId(ui: Ui, title: string): Promise<number> {
  const check = (v: string) =>
    /^[1-9]\d*$/.test(v.trim()) && Number.isSafeInteger(Number(v.trim()))
      ? undefined
      : t`A user id is a positive whole number.`;
  const text = required(await ui.input({ title, prompt: t`User id`, validateInput: check }));
  const problem = check(text);
  if (problem) throw new Error(problem);
  return Number(text.trim());
}

/**
 * Asks for a word typed in full before something that cannot be taken back (a user id before an erase, a production
 * universe's name before a bulk run): true only when exactly that was typed; Escape gives false.
 */
export async function askTyped(ui: Ui, options: { title: string; prompt: string; expected: string }): Promise<boolean> {
  const { expected } = options;
  const typed = await ui.input({
    title: options.title,
    prompt: options.prompt,
    validateInput: (v) => (v.trim() === expected ? undefined : t`Type ${expected} to confirm, or press Escape.`),
  });
  return typed?.trim() === expected;
}
