// Flush Memory Stores…: every sorted map and queue of a universe emptied, after a warning and the universe's name
// typed; the flush's operation followed to its end (Cancel stops following, never the flush).
import { askingWords, typedName } from '../../core/confirmWrite';
import { isCancel } from '../../core/errors';
import { askTyped, universeFrom } from '../../core/prompts';
import { t } from '../../core/text';
import { UserCancelled } from '../../core/ui';
import { assertWritable, describeUniverse, sameUniverse } from '../../core/universe';
import type { MemoryCommand } from './context';

export const flushMemoryStores: MemoryCommand = {
  id: 'universeExplorer.flushMemoryStores',
  get failure() {
    return t`flush the memory stores`;
  },
  async run(ctx, node?: unknown) {
    const u = await universeFrom(ctx.ui, ctx.connections, node);
    assertWritable(u);
    const where = describeUniverse(u);
    const flush = t`Flush…`;
    const words = askingWords(
      u,
      t`Flush every memory store of ${where}?`,
      t`Every sorted map and queue of the universe is emptied, for the running game servers too. There is no way back.`,
    );
    if ((await ctx.ui.warn(words.question, { modal: true, detail: words.detail }, flush)) !== flush)
      throw new UserCancelled();
    const name = typedName(u);
    const typed = await askTyped(ctx.ui, {
      title: t`Flush Memory Stores`,
      prompt: t`Type the universe's name, ${name}, to flush its memory stores.`,
      expected: name,
    });
    if (!typed) throw new UserCancelled();
    const done = await ctx.ui.progress(t`Flushing the memory stores of ${where}`, async (signal, report) => {
      const started = await ctx.model.flush(u);
      report(t`The service is flushing; Cancel stops following it, not the flush.`);
      try {
        await ctx.model.follow(u, started, signal, () => undefined);
        return true;
      } catch (error) {
        if (isCancel(error) || signal.aborted) return false;
        throw error;
      }
    });
    // What was held is gone with the rest.
    for (const held of ctx.held.list().filter((h) => sameUniverse(h.u, u))) ctx.held.release(held);
    if (done) void ctx.ui.info(t`Flushed the memory stores of ${where}.`);
    else
      void ctx.ui.info(
        t`Stopped following the flush of ${where}; the flush itself goes on in the service. Refresh Memory Stores later to see it done.`,
      );
  },
};
