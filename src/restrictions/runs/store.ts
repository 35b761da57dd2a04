// The ban runs this editor knows: each a plan file (`universe-explorer.bans/1`) with its journal beside it, made by
// Ban Users from a List… / Unban Everywhere… (kept in the extension's storage) or opened from a file (a plan of the
// command line or an agent, left where it lies). A small record per run says which connection it runs on. The
// restriction log groups a run's entries from these; Resume Ban Run… lists the ones not finished.
import fsp = require('node:fs/promises');
import path = require('node:path');
import { randomBytes } from 'node:crypto';
import vscode = require('vscode');
import { banPlanText, readBanJournal, readBanPlanText, isWrite, type BanPlanFile } from '../../api';

interface RunRecord {
  connectionId: string;
  /** The plan file (absolute). */
  file: string;
  created: string;
}

export interface BanRun extends RunRecord {
  id: string;
  plan: BanPlanFile;
  journalFile: string;
}

export interface RunProgress {
  /** Writes the plan makes (skips not counted). */
  writes: number;
  done: number;
  failed: number;
}

export const journalOf = (planFile: string): string => `${planFile}.journal`;

/** How far a run is, from its journal. */
export function runProgress(run: BanRun): RunProgress {
  const journal = readBanJournal(run.journalFile);
  let writes = 0;
  let failed = 0;
  for (const a of run.plan.actions) {
    if (!isWrite(a)) continue;
    writes++;
    if (!journal.done.has(a.n) && journal.failed.has(a.n)) failed++;
  }
  return { writes, done: journal.done.size, failed };
}

export class BanRuns implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<BanRun>();
  /** A run was made, opened, or written by. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly dir: string) {}

  /** A new run of a plan made here: the plan goes into the storage. */
  async create(connectionId: string, plan: BanPlanFile): Promise<BanRun> {
    const id = `${plan.kind}-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}-${randomBytes(3).toString('hex')}`;
    await fsp.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${id}.plan.json`);
    await fsp.writeFile(file, banPlanText(plan), { flag: 'wx' });
    return this.record(id, { connectionId, file, created: new Date().toISOString() }, plan);
  }

  /** A plan file made elsewhere, run where it lies (its journal beside it); the same file is one run. */
  async adopt(connectionId: string, file: string): Promise<BanRun> {
    const plan = readBanPlanText(await fsp.readFile(file, 'utf8'));
    const known = (await this.list()).find((r) => r.file === file && r.connectionId === connectionId);
    if (known) return { ...known, plan };
    const id = `file-${randomBytes(6).toString('hex')}`;
    return this.record(id, { connectionId, file, created: new Date().toISOString() }, plan);
  }

  /** The runs of a connection (of one universe, when given), newest first; runs whose plan is gone are left out. */
  async list(connectionId?: string, universeId?: number): Promise<BanRun[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return [];
    }
    const runs: BanRun[] = [];
    for (const name of names) {
      if (!name.endsWith('.run.json')) continue;
      const run = await this.read(name.slice(0, -'.run.json'.length));
      if (!run || (connectionId !== undefined && run.connectionId !== connectionId)) continue;
      if (universeId !== undefined && !run.plan.targets.some((t) => t.universeId === universeId)) continue;
      runs.push(run);
    }
    return runs.sort((a, b) => b.created.localeCompare(a.created));
  }

  async read(id: string): Promise<BanRun | undefined> {
    try {
      const record = JSON.parse(await fsp.readFile(path.join(this.dir, `${id}.run.json`), 'utf8')) as RunRecord;
      const plan = readBanPlanText(await fsp.readFile(record.file, 'utf8'));
      return { ...record, id, plan, journalFile: journalOf(record.file) };
    } catch {
      return undefined;
    }
  }

  /** Forgets a run never applied; a plan made here goes with it (a plan opened from a file stays). */
  async remove(run: BanRun): Promise<void> {
    await fsp.rm(path.join(this.dir, `${run.id}.run.json`), { force: true });
    if (path.dirname(run.file) === this.dir) await fsp.rm(run.file, { force: true });
  }

  /** Says a run was written by (the log panels group its entries again). */
  wrote(run: BanRun): void {
    this.changed.fire(run);
  }

  private async record(id: string, record: RunRecord, plan: BanPlanFile): Promise<BanRun> {
    await fsp.mkdir(this.dir, { recursive: true });
    await fsp.writeFile(path.join(this.dir, `${id}.run.json`), `${JSON.stringify(record, null, 1)}\n`);
    const run = { ...record, id, plan, journalFile: journalOf(record.file) };
    this.changed.fire(run);
    return run;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
