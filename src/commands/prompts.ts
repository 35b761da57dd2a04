import type { Connection } from '../connections';
import { checkBaseUrl, formatUniverses, parseUniverses, type UniverseEntry } from '../format';
import { ConnectionNode } from '../tree/connectionNode';
import { required, type Ui } from '../ui';
import type { CommandContext } from './context';

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
    validateInput: (v) => {
      try {
        parseUniverses(v);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    },
  });
  return parseUniverses(required(text));
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
