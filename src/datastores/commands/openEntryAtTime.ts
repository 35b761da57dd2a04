// Open at Time… on an entry: its value as it was at a moment, read-only, titled with its version's time and the
// moment. Through cloud v2 that is one request (a read at a time); through v1, the version then and its value.
import vscode = require('vscode');
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import { describeEntry } from '../editor/save';
import { versionUri } from '../editor/uris';
import type { DataStoresCommand } from './context';
import { askMoment } from './moment';
import { asEntry } from './nodes';

export const openEntryAtTime: DataStoresCommand = {
  id: 'universeExplorer.openEntryAtTime',
  get failure() {
    return t`open the entry at a time`;
  },
  async run(ctx, node: unknown) {
    const { address } = asEntry(node);
    const signal = new AbortController().signal;
    const time = await askMoment(ctx.ui, {
      title: t`Open ${address.key} at a time`,
      entry: { timeMachine: ctx.timeMachine, address, signal },
    });
    const entry = await ctx.ui.progress(t`Reading ${address.key}…`, (s) => ctx.model.entryAt(address, time, s));
    if (!entry) {
      void ctx.ui.info(
        t`${describeEntry(address)} had no value at ${localTime(time.getTime(), { seconds: true })}: it did not exist yet, or was deleted then.`,
      );
      return undefined;
    }
    const uri = versionUri(address, { version: entry.version, createdTime: entry.versionCreatedTime ?? '' }, time);
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  },
};
