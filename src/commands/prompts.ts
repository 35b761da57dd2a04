import type { Connection } from '../connections';
import { checkBaseUrl, formatUniverses, parseUniverses, type UniverseEntry } from '../format';
import { ConnectionNode } from '../tree/connectionNode';
import { allScopes, type DataStoreNode } from '../tree/dataStoreNode';
import { required, type Ui } from '../ui';
import type { CommandContext } from './context';

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

/** Keys, scopes and store names take 1 to 50 bytes. */
export const nameRule = (what: string) => (v: string) => (v && Buffer.byteLength(v) <= 50 ? undefined : `A ${what} has 1 to 50 bytes.`);

export async function askName(ui: Ui, value = ''): Promise<string> {
  const name = await ui.input({
    title: 'Connection name',
    value,
    prompt: 'A name to show in the Universes view',
    validateInput: (v) => (v.trim() ? undefined : 'Enter a name.'),
  });
  return required(name).trim();
}

export async function askBaseUrl(ui: Ui, value = 'https://apis.roblox.com'): Promise<string> {
  const url = await ui.input({
    title: 'Base URL',
    value,
    prompt: 'The address of the Open API, without a path',
    validateInput: checkBaseUrl,
  });
  return required(url).trim().replace(/\/+$/, '');
}

export async function askApiKey(ui: Ui): Promise<string> {
  const key = await ui.input({
    title: 'API key',
    password: true,
    prompt: 'Kept in VS Code Secret Storage only',
    validateInput: (v) => (v.trim() ? undefined : 'Enter the API key.'),
  });
  return required(key).trim();
}

export async function askPrefix(ui: Ui, value = 'platform'): Promise<string> {
  const prefix = await ui.input({
    title: 'Entry header prefix',
    value,
    prompt: 'The word before -entry-version in data store headers',
    validateInput: (v) => (/^[A-Za-z0-9]+$/.test(v.trim()) ? undefined : 'Use letters and digits only.'),
  });
  return required(prefix).trim();
}

export async function askUniverses(ui: Ui, value: readonly UniverseEntry[] = []): Promise<UniverseEntry[]> {
  const text = await ui.input({
    title: 'Universes',
    value: formatUniverses(value),
    prompt: 'Universe ids separated by commas, each optionally "= name", e.g. 123456 = My Game, 789',
    validateInput: validator(parseUniverses),
  });
  return parseUniverses(required(text));
}

/** The scope to use in a store: its own, or asked when the store lists all scopes. */
export async function scopeFor(ui: Ui, store: DataStoreNode): Promise<string> {
  if (store.scope !== allScopes) return store.scope;
  return required(await ui.input({ title: 'Scope', value: 'global', validateInput: nameRule('scope') }));
}

/** The connection of the clicked node, or one picked from the list. */
export async function pickConnection(ctx: CommandContext, node: unknown, savedOnly = false): Promise<Connection> {
  if (node instanceof ConnectionNode) return node.connection;
  const all = ctx.connections.list().filter((c) => !savedOnly || !c.sandbox);
  if (all.length === 0) throw new Error('there are no connections yet; add one first');
  if (all.length === 1) return all[0];
  const picked = await ctx.ui.pick(
    all.map((c) => ({ label: c.name, description: c.baseUrl, connection: c })),
    { title: 'Connection' },
  );
  return required(picked).connection;
}
