// Names the service cannot list (ordered data stores, sorted maps, queues): the ones the user added or opened, per
// universe and kind, kept in globalState. Names only; never a value or a key.
import vscode = require('vscode');
import type { Connections } from './connections';
import { universeKey, type UniverseAddress } from './universe';

/** Which list: an area picks its own kinds (`ordered`, `sortedMap`, `queue`). */
export type NameKind = string;

export interface NamesChange {
  universe: UniverseAddress;
  kind: NameKind;
}

const connectionPrefix = (connectionId: string) => `universeExplorer.names/${connectionId}/`;
const stateKey = (kind: NameKind, u: UniverseAddress) => `universeExplorer.names/${universeKey(u)}/${kind}`;
const introducedKey = (kind: NameKind, u: UniverseAddress) => `${stateKey(kind, u)}/introduced`;

/**
 * The remembered names, newest first. Each list is read once and written through (globalState may answer with an
 * older value for a moment after two quick updates).
 */
export class RememberedNames implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<NamesChange>();
  readonly onDidChange = this.changed.event;
  private readonly lists = new Map<string, string[]>();
  private readonly removal: vscode.Disposable;

  constructor(
    private readonly state: vscode.Memento,
    connections: Pick<Connections, 'onDidRemove'>,
  ) {
    this.removal = connections.onDidRemove((connectionId) => this.forgetConnection(connectionId));
  }

  list(u: UniverseAddress, kind: NameKind): string[] {
    const key = stateKey(kind, u);
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = this.state.get<string[]>(key, [])));
    return [...list];
  }

  has(u: UniverseAddress, kind: NameKind, name: string): boolean {
    return this.list(u, kind).includes(name);
  }

  /** Remembers the name at the top of the list (a name already listed keeps its place). */
  async add(u: UniverseAddress, kind: NameKind, name: string): Promise<void> {
    const list = this.list(u, kind);
    if (list.includes(name)) return;
    await this.save(u, kind, [name, ...list]);
  }

  async forget(u: UniverseAddress, kind: NameKind, name: string): Promise<void> {
    const list = this.list(u, kind);
    if (!list.includes(name)) return;
    await this.save(
      u,
      kind,
      list.filter((n) => n !== name),
    );
  }

  /**
   * Adds names the universe is known to hold (the Local Sandbox's demo), once: what the user forgets later stays
   * forgotten.
   */
  async introduce(u: UniverseAddress, kind: NameKind, names: readonly string[]): Promise<void> {
    const key = introducedKey(kind, u);
    if (this.state.get<boolean>(key)) return;
    const list = this.list(u, kind);
    await this.save(u, kind, [...list, ...names.filter((n) => !list.includes(n))]);
    await this.state.update(key, true);
  }

  dispose(): void {
    this.removal.dispose();
    this.changed.dispose();
  }

  private async save(u: UniverseAddress, kind: NameKind, list: string[]): Promise<void> {
    const key = stateKey(kind, u);
    this.lists.set(key, list);
    this.changed.fire({ universe: u, kind });
    await this.state.update(key, list);
  }

  private forgetConnection(connectionId: string): void {
    for (const key of this.state.keys()) {
      if (!key.startsWith(connectionPrefix(connectionId))) continue;
      this.lists.delete(key);
      void this.state.update(key, undefined);
    }
  }
}
