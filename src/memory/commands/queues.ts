// Queue commands: Add Item…, Read and Hold… (a warning first: there is no peek), and what to do with held items.
import vscode = require('vscode');
import { MAX_QUEUE_READ } from '../../api';
import { confirmProductionWrite } from '../../core/confirmWrite';
import { formatDuration } from '../../core/duration';
import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { timeOfDay } from '../../core/time';
import { required, UserCancelled } from '../../core/ui';
import { assertWritable } from '../../core/universe';
import { describeHeld, secondsToGo, type HeldRead } from '../held';
import { parseTtl, parseValue } from '../values';
import type { MemoryCommand, MemoryContext } from './context';
import { askTtl, confirm, storeFrom } from './support';

function parseCount(text: string): number {
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < 1 || n > MAX_QUEUE_READ) throw new Error(t`Give a whole number from 1 to 200.`);
  return n;
}

function parsePriority(text: string): number {
  const n = Number(text.trim() || '0');
  if (!Number.isFinite(n)) throw new Error(t`Give a number: higher leaves the queue first.`);
  return n;
}

export const addQueueItem: MemoryCommand = {
  id: 'universeExplorer.addQueueItem',
  get failure() {
    return t`add the queue item`;
  },
  async run(ctx, node?: unknown) {
    const { u, name } = await storeFrom(ctx, node, 'queue');
    assertWritable(u);
    const text = await ctx.ui.input({
      title: t`Add Item to ${name}`,
      value: '{}',
      prompt: t`The item's value as JSON (text in quotes: "hello")`,
      validateInput: validator(parseValue),
    });
    const data = parseValue(required(text));
    const priority = parsePriority(
      required(
        await ctx.ui.input({
          title: t`Priority of the item`,
          value: '0',
          prompt: t`A number: higher leaves the queue first`,
          validateInput: validator(parsePriority),
        }),
      ),
    );
    const ttlSeconds = await askTtl(ctx, t`Time to live of the item`, '3600');
    await confirmProductionWrite(ctx.ui, u, t`Add an item to queue ${name}?`, t`Add`);
    await ctx.ui.progress(t`Adding to ${name}…`, () => ctx.model.addQueueItem(u, name, { data, priority, ttlSeconds }));
    void ctx.ui.info(
      t`Added an item to queue ${name} (priority ${priority}, expires in ${formatDuration(ttlSeconds)}).`,
    );
  },
};

export const readQueueItems: MemoryCommand = {
  id: 'universeExplorer.readQueueItems',
  get failure() {
    return t`read the queue`;
  },
  async run(ctx, node?: unknown) {
    const { u, name } = await storeFrom(ctx, node, 'queue');
    // A read is a write (it hides items): refused before the warning on a read-only universe.
    assertWritable(u);
    await confirm(
      ctx,
      u,
      t`Read and hold items of queue ${name}?`,
      t`There is no peek: the items read are hidden from the game servers too, for the window you choose. Discard then removes them for good; otherwise they come back when the window ends.`,
      t`Continue`,
    );
    const count = parseCount(
      required(
        await ctx.ui.input({
          title: t`How many items to read from ${name}`,
          value: '10',
          prompt: t`From 1 to 200, highest priority first`,
          validateInput: validator(parseCount),
        }),
      ),
    );
    const windowSeconds = parseTtl(
      required(
        await ctx.ui.input({
          title: t`How long to hold them`,
          value: '30',
          prompt: t`Seconds (or e.g. 5m) the items stay hidden from every other reader`,
          validateInput: validator(parseTtl),
        }),
      ),
    );
    const readAt = Date.now();
    const read = await ctx.ui.progress(t`Reading ${name}…`, (signal) =>
      ctx.model.readQueue(u, name, count, windowSeconds, signal),
    );
    if (!read.readId || read.items.length === 0) {
      void ctx.ui.info(t`Queue ${name} has no item to read: it is empty, or its items are held by another read.`);
      return;
    }
    const held = ctx.held.add({ u, queueName: name, readId: read.readId, items: read.items }, windowSeconds, readAt);
    await vscode.window.showTextDocument(held.uri, { preview: false });
    await offer(ctx, held);
  },
};

/** The held reads: one picked (when several), then what to do with it. */
export const showHeldQueueItems: MemoryCommand = {
  id: 'universeExplorer.showHeldQueueItems',
  get failure() {
    return t`act on the held items`;
  },
  async run(ctx) {
    const reads = ctx.held.list();
    if (reads.length === 0) {
      void ctx.ui.info(t`No queue items are held: their windows ended, and they are back in their queues.`);
      return;
    }
    const picked =
      reads.length === 1
        ? reads[0]
        : required(
            await ctx.ui.pick(
              reads.map((h) => ({ label: describeHeld(h), description: t`${secondsToGo(h)}s left`, h })),
              { title: t`Held Queue Items` },
            ),
          ).h;
    await vscode.window.showTextDocument(picked.uri, { preview: false });
    await offer(ctx, picked);
  },
};

/** Discard or Let Go; dismissed, the items stay held (the status bar counts down) and come back at the end. */
async function offer(ctx: MemoryContext, held: HeldRead): Promise<void> {
  const [discard, letGo] = [t`Discard`, t`Let Go`];
  const choice = await ctx.ui.info(
    t`Holding ${describeHeld(held)} until ${timeOfDay(held.until, { seconds: true })}: the game servers cannot see them until then.`,
    discard,
    letGo,
  );
  if (choice === letGo) {
    ctx.held.release(held);
    void ctx.ui.info(t`Let go of ${describeHeld(held)}; back in the queue when the window ends.`);
    return;
  }
  if (choice !== discard) throw new UserCancelled();
  const ended = Date.now() >= held.until;
  await ctx.ui.progress(t`Discarding…`, () => ctx.model.discard(held.u, held.queueName, held.readId));
  ctx.held.release(held);
  if (ended) {
    void ctx.ui.warn(
      t`The window had ended, so the service ignored the discard: what was read from queue ${held.queueName} is back in the queue.`,
      {},
    );
    return;
  }
  void ctx.ui.info(t`Discarded ${describeHeld(held)}; gone for good.`);
}
