// Queue items a Read and Hold took: hidden from every other reader (game servers too) until their window ends. Each
// held read shows as a read-only JSON document, and one status bar item counts the soonest window down; Discard
// removes a read's items for good, Let Go leaves them to come back when the window ends.
import vscode = require('vscode');
import type { QueueItem } from '../api';
import { formatDuration } from '../core/duration';
import { t } from '../core/text';
import { localAndUtc, timeOfDay } from '../core/time';
import type { UniverseAddress } from '../core/universe';

export const heldScheme = 'universe-memory-held';

export interface HeldRead {
  u: UniverseAddress;
  queueName: string;
  readId: string;
  items: QueueItem[];
  /** ms since the epoch, on this machine's clock. */
  until: number;
  uri: vscode.Uri;
}

/** `3 items of queue Jobs`. */
export const describeHeld = (h: { queueName: string; items: unknown[] }): string =>
  h.items.length === 1 ? t`1 item of queue ${h.queueName}` : t`${h.items.length} items of queue ${h.queueName}`;

export const secondsToGo = (h: HeldRead): number => Math.max(0, Math.ceil((h.until - Date.now()) / 1000));

export class HeldReads implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly reads: HeldRead[] = [];
  private readonly texts = new Map<string, string>();
  private readonly status = vscode.window.createStatusBarItem(
    'universeExplorer.heldQueueItems',
    vscode.StatusBarAlignment.Left,
    48,
  );
  private timer: NodeJS.Timeout | undefined;
  private count = 0;

  constructor() {
    this.status.name = t`Held Queue Items`;
    this.status.command = 'universeExplorer.showHeldQueueItems';
  }

  list(): HeldRead[] {
    return this.reads.filter((h) => secondsToGo(h) > 0);
  }

  /** Keeps the read until its window ends, and its document's text. */
  add(read: Omit<HeldRead, 'uri' | 'until'>, windowSeconds: number, readAt: number): HeldRead {
    const until = readAt + windowSeconds * 1000;
    const uri = vscode.Uri.from({
      scheme: heldScheme,
      path: `/${read.queueName.replace(/\//g, '\u2215')} held ${++this.count}.json`,
    });
    const held = { ...read, until, uri };
    this.reads.push(held);
    const shown = {
      queue: read.queueName,
      heldUntil: localAndUtc(until, { seconds: true }),
      note: t`Hidden from the game servers until then. Discard removes them for good; Let Go lets them come back.`,
      items: read.items.map((i) => ({ data: i.data, priority: i.priority, expireTime: i.expireTime })),
    };
    this.texts.set(uri.toString(), `${JSON.stringify(shown, null, 2)}\n`);
    this.tick();
    return held;
  }

  /** Forgets the read (discarded, or let go): it no longer counts down. */
  release(held: HeldRead): void {
    const i = this.reads.indexOf(held);
    if (i >= 0) this.reads.splice(i, 1);
    this.tick();
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.status.dispose();
  }

  /** Redraws the countdown every second while a window is open. */
  private tick(): void {
    clearTimeout(this.timer);
    for (const ended of this.reads.filter((h) => secondsToGo(h) === 0)) this.reads.splice(this.reads.indexOf(ended), 1);
    const soonest = this.reads.reduce<HeldRead | undefined>((a, h) => (a && a.until <= h.until ? a : h), undefined);
    if (!soonest) {
      this.status.hide();
      return;
    }
    const held = this.reads.reduce((n, h) => n + h.items.length, 0);
    this.status.text = `$(watch) ${t`${held} held · ${formatDuration(secondsToGo(soonest))} left`}`;
    this.status.tooltip = this.reads
      .map((h) => t`${describeHeld(h)}: hidden until ${timeOfDay(h.until, { seconds: true })}`)
      .join('\n');
    this.status.show();
    this.timer = setTimeout(() => this.tick(), 1000);
  }
}
