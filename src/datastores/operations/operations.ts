// The data stores' recent operations: each plan (a restore, its undo, a copy, a put-back, an import) with its audit,
// skipped and failure lists lives in a folder of its own under the extension's global storage, never in the
// workspace. A folder holds `operation.json` (what the Recent Operations node lists) and the plan's files; there is
// no shared index, so two windows never overwrite each other's record. A plan never applied is removed when its
// review closes (a cancelled flow leaves nothing), or at the next start once it is older than STALE_MS.
import { randomUUID } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import vscode = require('vscode');
import { sameUniverse, type UniverseAddress } from '../../core/universe';
import type { StoreRef } from '../listState';

export type OperationKind = 'restore' | 'undo' | 'copy' | 'putBack' | 'import' | 'erase';

/** planned: reviewed, not applied; stopped: a run that was cancelled or failed part way; applied: done. */
export type OperationState = 'planned' | 'stopped' | 'applied';

export interface Operation extends StoreRef {
  id: string;
  kind: OperationKind;
  /** The store and its selection: `Players (scope global)`. */
  what: string;
  /** A restore: the moment, in local time. */
  when?: string;
  /** A copy: what it copies from. */
  copyOf?: string;
  /** An undo or put-back: the audit file of the run it answers. */
  auditOf?: string;
  /** An import: the file's name and path, the mode, and the last line handled. */
  importFile?: string;
  importPath?: string;
  importMode?: 'createOnly' | 'overwrite';
  importLine?: number;
  /** A plan reviewed from a file (Review Plan File…, an agent's plan): the file's name. */
  planOf?: string;
  /** An erase: the user, and the stores it plans for, one plan each (`datastoreName` is the first). */
  userId?: number;
  stores?: string[];
  /** ISO times. */
  planned: string;
  applied?: string;
  state: OperationState;
  /** The last run's counts, said in the node's description. */
  outcome?: string;
  /** A restore or copy: the undo that put it back (then it offers no Undo again). */
  undoneBy?: string;
}

/** A plan left unapplied by a window that closed is removed after this long. */
const STALE_MS = 6 * 60 * 60 * 1000;
const RECORD = 'operation.json';

export class Operations implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<UniverseAddress>();
  readonly onDidChange = this.changed.event;

  constructor(readonly dir: string) {}

  /** The folder of an operation. */
  folder(op: Pick<Operation, 'id'>): string {
    return path.join(this.dir, op.id);
  }

  /** The plan file of an operation; its audit, skipped and failure files go next to it. */
  planFile(op: Pick<Operation, 'id'>): string {
    return path.join(this.folder(op), 'plan.ndjson');
  }

  /** The plan file of an erase's store, by its place in `stores`. */
  storePlanFile(op: Pick<Operation, 'id'>, index: number): string {
    return path.join(this.folder(op), `store-${index}`, 'plan.ndjson');
  }

  /** A new planned operation, with its folder. */
  create(fields: Omit<Operation, 'id' | 'planned' | 'state'>): Operation {
    const op: Operation = { ...fields, id: randomUUID(), planned: new Date().toISOString(), state: 'planned' };
    fs.mkdirSync(this.folder(op), { recursive: true });
    this.write(op);
    return op;
  }

  update(op: Operation, patch: Partial<Omit<Operation, 'id'>>): Operation {
    Object.assign(op, patch);
    this.write(op);
    return op;
  }

  /** Removes an operation and its files. */
  remove(op: Operation): void {
    fs.rmSync(this.folder(op), { recursive: true, force: true });
    this.changed.fire(op);
  }

  get(id: string): Operation | undefined {
    return this.read(id);
  }

  /** The universe's operations, newest first; unapplied plans older than STALE_MS are removed on the way. */
  list(u?: UniverseAddress): Operation[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const ops: Operation[] = [];
    const now = Date.now();
    for (const name of names) {
      const op = this.read(name);
      if (!op) continue;
      if (op.state === 'planned' && now - Date.parse(op.planned) > STALE_MS) {
        fs.rmSync(this.folder(op), { recursive: true, force: true });
        continue;
      }
      if (!u || sameUniverse(op, u)) ops.push(op);
    }
    return ops.sort((a, b) => (b.applied ?? b.planned).localeCompare(a.applied ?? a.planned));
  }

  private read(id: string): Operation | undefined {
    try {
      const parsed = JSON.parse(fs.readFileSync(path.join(this.dir, id, RECORD), 'utf8')) as Partial<Operation> | null;
      return parsed?.id === id && typeof parsed.datastoreName === 'string' ? (parsed as Operation) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Written to a temporary file and renamed, so a killed process leaves the old record or the new one. */
  private write(op: Operation): void {
    const file = path.join(this.folder(op), RECORD);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(op));
    fs.renameSync(`${file}.tmp`, file);
    this.changed.fire(op);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
