// Import… on a data store row: the file, the mode, an offer of a snapshot, then the dry run in a review panel (what
// each line would create, overwrite or skip, and the invalid ones), Apply runs it and the panel shows the result.
import path = require('node:path');
import vscode = require('vscode');
import type { ImportMode } from '../../api';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { planImportReview } from '../operations/importReview';
import { localPath, ndjsonFilters } from './bulk';
import type { DataStoresCommand } from './context';
import { writableStore } from './nodes';
import { offerSnapshot } from './snapshot';

const modes = (): (vscode.QuickPickItem & { mode: ImportMode })[] => [
  { label: t`Create Only`, description: t`skip keys that already exist`, mode: 'createOnly' },
  {
    label: t`Overwrite`,
    description: t`replace existing keys with their lines; a line without attributes or user ids keeps the key's own`,
    mode: 'overwrite',
  },
];

export const importDataStore: DataStoresCommand = {
  id: 'universeExplorer.importDataStore',
  get failure() {
    return t`import into the data store`;
  },
  async run(ctx, node: unknown) {
    const store = writableStore(node);
    const name = store.store.name;
    const [uri] = required(
      await ctx.ui.openDialog({
        title: t`Import into ${name}`,
        openLabel: t`Import`,
        canSelectMany: false,
        filters: ndjsonFilters(),
      }),
    );
    const file = localPath(uri);
    const input = path.basename(file);
    const { mode } = required(
      await ctx.ui.pick(modes(), {
        title: t`Import ${input} into ${name}`,
        placeHolder: t`Each entry goes to the scope its line names`,
      }),
    );
    if (!(await offerSnapshot(ctx, store.ref, t`importing ${input} into ${name}`))) return undefined;
    return planImportReview(ctx, store.ref, file, input, mode);
  },
};
