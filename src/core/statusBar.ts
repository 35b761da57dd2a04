// One status bar item: the connection the user works in (from the tree's selection), what is starting, and while
// bulk work runs its rate and what remains of the service's rate budget. A click shows the details.
import vscode = require('vscode');
import type { RateLimit } from '../api';
import type { Connection, Connections } from './connections';
import { t } from './text';
import { ConnectionNode, UniverseNode } from './tree/connectionNodes';
import type { TreeNode } from './tree/node';
import { isReadOnly, readOnlyInSettings, roleName, roleOf } from './universe';

/** A bulk job as the status bar follows it. */
export interface BulkJobStatus {
  /** The entries handled per second so far. */
  rate(perSecond: number): void;
  end(): void;
}

/** What bulk commands tell the status bar. */
export interface BulkStatus {
  /** `share`: the part of each rate window the job may spend (universeExplorer.bulk.budgetShare). */
  startJob(title: string, connectionId: string, share?: number): BulkJobStatus;
}

interface Job {
  title: string;
  connectionId: string;
  perSecond: number;
  share?: number;
}

export const SHOW_STATUS = 'universeExplorer.showStatus';

export class StatusBar implements BulkStatus, vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('universeExplorer.status', vscode.StatusBarAlignment.Left, 50);
  private readonly jobs = new Set<Job>();
  private readonly activities = new Set<string>();
  private selected: { connectionId: string; universeId?: number } | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connections: Connections,
    view: vscode.TreeView<TreeNode>,
  ) {
    this.item.name = 'Universe Explorer';
    this.item.command = SHOW_STATUS;
    this.disposables.push(
      this.item,
      connections.onDidChange(() => this.render()),
      view.onDidChangeSelection((e) => {
        this.selected = placeOf(e.selection[0]);
        this.render();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('universeExplorer.readOnlyUniverses')) this.render();
      }),
    );
    this.render();
  }

  startJob(title: string, connectionId: string, share?: number): BulkJobStatus {
    const job: Job = { title, connectionId, perSecond: 0, share };
    this.jobs.add(job);
    // The budget moves with every answer, not only with progress reports.
    this.timer ??= setInterval(() => this.render(), 1000);
    this.render();
    return {
      rate: (perSecond) => {
        job.perSecond = perSecond;
        this.render();
      },
      end: () => {
        this.jobs.delete(job);
        if (!this.jobs.size) {
          clearInterval(this.timer);
          this.timer = undefined;
        }
        this.render();
      },
    };
  }

  /** Shows `text` (e.g. "Starting Local Sandbox") while `work` runs; returns `work`. */
  during<T>(text: string, work: Promise<T>): Promise<T> {
    this.activities.add(text);
    this.render();
    return work.finally(() => {
      this.activities.delete(text);
      this.render();
    });
  }

  /** The connection the status bar names: the selected row's, else the only or first one. */
  active(): Connection | undefined {
    const list = this.connections.list();
    return list.find((c) => c.id === this.selected?.connectionId) ?? list[0];
  }

  /** What the details view lists, one line each. */
  details(): { label: string; detail?: string }[] {
    const lines: { label: string; detail?: string }[] = [];
    const connection = this.active();
    if (!connection) lines.push({ label: t`No connection`, detail: t`Add one, or start the Local Sandbox.` });
    else {
      lines.push({
        label: `${connection.sandbox ? '$(beaker)' : '$(plug)'} ${connection.name}`,
        detail: connection.sandbox ? t`the built-in emulator at ${connection.baseUrl}` : connection.baseUrl,
      });
      for (const u of connection.universes) {
        const address = { connectionId: connection.id, universeId: u.id };
        const locked = isReadOnly(address);
        const role = roleOf(address);
        const marks = [
          role === 'development' ? '' : roleName(role),
          locked ? (readOnlyInSettings(u.id) ? t`read-only (universeExplorer.readOnlyUniverses)` : t`read-only`) : '',
        ].filter(Boolean);
        lines.push({
          label: `${locked ? '$(lock)' : '$(globe)'} ${u.name ?? t`Universe ${u.id}`}`,
          detail: [t`universe ${u.id}`, ...marks].join(', '),
        });
      }
    }
    for (const text of this.activities) lines.push({ label: `$(loading~spin) ${text}…` });
    for (const job of this.jobs) {
      lines.push({
        label: `$(sync~spin) ${job.title}`,
        detail: jobText(job, this.connections.rateLimit(job.connectionId)),
      });
    }
    return lines;
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const d of this.disposables) d.dispose();
  }

  private render(): void {
    const job = [...this.jobs].at(-1);
    const activity = [...this.activities].at(-1);
    const connection = this.active();
    const readOnly = this.readOnlyShown(connection);
    const text = job
      ? `$(sync~spin) ${job.title}: ${jobText(job, this.connections.rateLimit(job.connectionId))}`
      : activity
        ? `$(loading~spin) ${activity}…`
        : connection
          ? `${connection.sandbox ? '$(beaker)' : '$(plug)'} ${connection.name}${readOnly ? ` ${t`(read-only)`} $(lock)` : ''}`
          : `$(globe) ${t`No connection`}`;
    const place = connection?.sandbox ? t`Local Sandbox` : connection?.baseUrl;
    const where = connection
      ? readOnly
        ? t`${connection.name} (${place}), read-only`
        : `${connection.name} (${place})`
      : t`no connection`;
    this.item.text = text;
    this.item.tooltip = t`Universe Explorer: ${where}. Click for details.`;
    // Screen readers hear the words, not the icon names.
    this.item.accessibilityInformation = { label: t`Universe Explorer: ${text.replace(/\$\([^)]*\)\s*/g, '').trim()}` };
    this.item.show();
  }

  /** Read-only is marked for the selected universe, or for a connection whose universes are all read-only. */
  private readOnlyShown(connection: Connection | undefined): boolean {
    if (!connection) return false;
    const universeId = connection.id === this.selected?.connectionId ? this.selected.universeId : undefined;
    const locked = (id: number) => isReadOnly({ connectionId: connection.id, universeId: id });
    if (universeId !== undefined) return locked(universeId);
    return connection.universes.length > 0 && connection.universes.every((u) => locked(u.id));
  }
}

/**
 * `120/s · 180 of 300 requests left this window · at most 50% of it` (the figures the service last sent, and the
 * share of each window the job leaves the game's servers the rest of).
 */
export function jobText(job: { perSecond: number; share?: number }, limit: RateLimit | undefined): string {
  const parts = [`${job.perSecond.toLocaleString('en-US')}/s`];
  const max = limit?.limit && /^\s*(\d+)/.exec(limit.limit)?.[1];
  if (limit?.remaining !== undefined) {
    const remaining = limit.remaining.toLocaleString('en-US');
    parts.push(max ? t`${remaining} of ${max} requests left this window` : t`${remaining} requests left this window`);
  }
  if (job.share !== undefined && job.share < 1) parts.push(t`at most ${Math.round(job.share * 100)}% of it`);
  return parts.join(' · ');
}

/** The connection and universe a row belongs to. */
function placeOf(node: TreeNode | undefined): { connectionId: string; universeId?: number } | undefined {
  for (let n = node; n; n = n.parent) {
    if (n instanceof UniverseNode) return { connectionId: n.connectionId, universeId: n.universe.id };
    if (n instanceof ConnectionNode) return { connectionId: n.connection.id };
  }
  return undefined;
}
