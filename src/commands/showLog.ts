import type { CommandDef } from './context';

export const showLog: CommandDef = {
  id: 'universeExplorer.showLog',
  failure: 'show the log',
  run: (ctx) => ctx.log.show(),
};
