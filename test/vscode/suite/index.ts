// The extensionTestsPath module: VS Code's extension host (code-server here, desktop VS Code under
// test:desktop) calls run() once the extension under development is loaded. It runs mocha over every
// `*.test.js` next to this file (built from test/vscode/suite/**/*.test.ts by run.ts), with the TDD
// interface: `import { suite, test, suiteSetup } from 'mocha'`.
//
// Output: the extension host forwards console output to the workbench, which passes it (with its
// own log lines) to window.codeAutomationLog. The extension host's console methods cannot be replaced
// (VS Code pins them), so the suite's own lines (mocha's reporter through Base.consoleLog, and log()
// from ./log) are sent tagged `@@T `; the runner shows those and files the rest in the run dir's
// workbench.log. The last line is a marker the runner parses:
//   @@T @@RESULT {"passed":N,"failed":M,"pending":K,"files":F}
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { log } from './log';

export const RESULT_MARKER = '@@RESULT ';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...findTests(p));
    else if (e.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

export async function run(): Promise<void> {
  process.setSourceMapsEnabled?.(true);
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const savedBase = base.consoleLog;
  base.consoleLog = log;
  try {
    await runMocha();
  } finally {
    base.consoleLog = savedBase;
  }
}

async function runMocha(): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    reporter: 'spec',
    color: false,
    timeout: Number(process.env.UE_TEST_TIMEOUT_MS) || 30_000,
    grep: process.env.UE_TEST_GREP || undefined,
  });
  const files = findTests(__dirname);
  for (const f of files) mocha.addFile(f);
  const stats = await new Promise<{ passed: number; failed: number; pending: number }>((resolve, reject) => {
    try {
      const runner = mocha.run(() => {
        const s = runner.stats;
        resolve({ passed: s?.passes ?? 0, failed: s?.failures ?? 0, pending: s?.pending ?? 0 });
      });
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  }).catch((err: Error) => {
    // A test file that throws while loading: report it as one failure.
    log(`error loading the tests: ${err.stack ?? err.message}`);
    return { passed: 0, failed: 1, pending: 0 };
  });
  log(RESULT_MARKER + JSON.stringify({ ...stats, files: files.length }));
  // Console forwarding is asynchronous: give the last lines time to leave before the host shuts down.
  await new Promise((r) => setTimeout(r, 500));
  if (stats.failed > 0) throw new Error(`${stats.failed} test(s) failed`);
  if (stats.passed === 0) throw new Error('no test ran');
}
