// log(...) from a test shows in the runner's output (plain console.log in the extension host only
// reaches the run dir's workbench.log under run.ts): formatted like console.log, tagged for run.ts.
import { format } from 'node:util';

export const LINE_TAG = '@@T ';

const tag = process.env.UE_TAG_OUTPUT === '1' ? LINE_TAG : ''; // set by run.ts (code-server)

export function log(...args: unknown[]): void {
  console.log(tag + format(...args));
}
