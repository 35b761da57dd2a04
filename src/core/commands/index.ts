import { addConnection } from './addConnection';
import { addUniverse } from './addUniverse';
import type { CoreCommand } from './context';
import { editConnection } from './editConnection';
import { loadMore } from './loadMore';
import { refresh } from './refresh';
import { removeConnection } from './removeConnection';
import { removeUniverse } from './removeUniverse';
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
  refresh,
  loadMore,
  showLog,
  showStatus,
  deleteSelection,
  openSelection,
];
