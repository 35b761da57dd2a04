import { addConnection } from './addConnection';
import { addUniverse } from './addUniverse';
import { allowWrites } from './allowWrites';
import type { CoreCommand } from './context';
import { editConnection } from './editConnection';
import { loadMore } from './loadMore';
import { makeReadOnly } from './makeReadOnly';
import { refresh } from './refresh';
import { removeConnection } from './removeConnection';
import { removeUniverse } from './removeUniverse';
import { setUniverseRole } from './setUniverseRole';
import { showLog } from './showLog';
import { deleteSelection, openSelection } from './rowKeyCommands';
import { showStatus } from './showStatus';
import { testConnection } from './testConnection';

export const coreCommands: readonly CoreCommand[] = [
  addConnection,
  editConnection,
  removeConnection,
  testConnection,
  addUniverse,
  removeUniverse,
  setUniverseRole,
  makeReadOnly,
  allowWrites,
  refresh,
  loadMore,
  showLog,
  showStatus,
  deleteSelection,
  openSelection,
];
