// Runs the extension's tests inside a real VS Code: code-server 4.139.1 (VS Code 1.139.1) on Node 24,
// driven by Debian's Chromium through playwright-core (docs/ARCHITECTURE.md, "Tests inside a real VS Code").
//   node --import tsx test/vscode/run.ts [--suite-only | --ui-only] [--keep]
// 1. builds the extension (esbuild.js) and the mocha suite (test/vscode/suite -> out/test/vscode/suite),
// 2. the mocha suite in the extension host (payload extensionTestsPath), output streamed here,
// 3. the UI tests (ui.ts) against a second server without extensionTestsPath.
// Ends with one plain line `N passed, M failed` (`, K skipped` when any); exit 0 only when all passed
// and N > 0. Env: UE_TEST_GREP (mocha grep; also picks UI tests, named `ui: …`), UE_TEST_TIMEOUT_MS (per mocha test), UE_RUN_TIMEOUT_MS
// (the run after tools and build, default 45 min; each UI test has 5 min), CHROMIUM (browser path). Each server gets a fresh run
// dir under .test-runs/ (removed when its tests pass; --keep keeps it) and failures leave screenshots
// in test-results/. Ctrl-C, the timeout and any error stop code-server and Chromium.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import type { Browser } from 'playwright-core';
import {
  ROOT,
  ToolError,
  ensureTools,
  makeRunDir,
  startCodeServer,
  stopSandboxEmulators,
  writeUserSettings,
  type RunDirs,
  type RunningCodeServer,
  type Tools,
} from '../../scripts/code-server';
import { buildExtension, buildSuite } from './build';
import { RESULTS_DIR, UI_SETTINGS, UI_TESTS } from './ui';
import { Workbench, launchBrowser, workbenchUrl } from './workbench';

const RUNS_DIR = path.join(ROOT, '.test-runs');
const FIXTURE = path.join(ROOT, 'test/vscode/workspace');
const LINE_TAG = '@@T '; // see suite/index.ts and suite/log.ts
const RESULT_MARKER = '@@RESULT ';
// Guards against a hang, never speed checks: a slow machine (CI's measured 2x this one) must still pass.
const RUN_TIMEOUT_MS = Number(process.env.UE_RUN_TIMEOUT_MS) || 45 * 60_000;
const SUITE_TIMEOUT_MS = 20 * 60_000;
const UI_TEST_TIMEOUT_MS = 5 * 60_000;

const args = new Set(process.argv.slice(2));
const counts = { passed: 0, failed: 0, skipped: 0 };
const servers = new Set<RunningCodeServer>();
let browser: Browser | undefined;
let finished = false;
let aborting = false;

function say(msg: string): void {
  process.stdout.write(`[vscode-test] ${msg}\n`);
}

async function cleanup(): Promise<void> {
  const b = browser;
  browser = undefined;
  await Promise.allSettled([b?.close(), ...[...servers].map((s) => s.stop())]);
  servers.clear();
}

function finish(exitCode?: number): never {
  finished = true;
  const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
  process.stdout.write(`${counts.passed} passed, ${counts.failed} failed${skipped}\n`);
  process.exit(exitCode ?? (counts.failed === 0 && counts.passed > 0 ? 0 : 1));
}

/** Timeout, signal or unexpected error: count one failure, stop everything, print the line. */
async function abort(reason: string, exitCode = 1): Promise<void> {
  if (aborting || finished) return;
  aborting = true;
  say(reason);
  counts.failed += 1;
  await Promise.race([cleanup(), new Promise((r) => setTimeout(r, 8000))]);
  finish(exitCode);
}

async function startServer(tools: Tools, name: string, settings: Record<string, unknown>) {
  const dirs = makeRunDir(RUNS_DIR, name, FIXTURE);
  writeUserSettings(dirs, settings);
  const server = await startCodeServer({ tools, dirs });
  servers.add(server);
  void server.exited.then(() => servers.delete(server));
  say(`${name}: code-server ${server.url} (run dir ${path.relative(ROOT, dirs.root) || dirs.root})`);
  return { dirs, server };
}

async function stopServer(server: RunningCodeServer, dirs: RunDirs): Promise<void> {
  await server.stop();
  servers.delete(server);
  await stopSandboxEmulators(dirs);
}

/** A codeAutomationLog message is the JSON of the console call's arguments; back to one string. */
function logText(message: string): string {
  try {
    const parsed: unknown = JSON.parse(message);
    if (Array.isArray(parsed)) return format(...(parsed as unknown[]));
  } catch {
    /* not JSON: as is */
  }
  return message;
}

async function runSuite(tools: Tools, b: Browser, indexJs: string): Promise<boolean> {
  const { dirs, server } = await startServer(tools, 'suite', {});
  const workbenchLog = fs.createWriteStream(path.join(dirs.root, 'workbench.log'));
  let result: { passed: number; failed: number; pending: number; files: number } | undefined;
  let exitCode: number | undefined;
  let wb: Workbench | undefined;
  const onLog = (level: string, message: string) => {
    const text = logText(message);
    if (!text.startsWith(LINE_TAG)) {
      workbenchLog.write(`[${level}] ${text}\n`);
      return;
    }
    for (const line of text.slice(LINE_TAG.length).split('\n')) {
      if (!line.startsWith(RESULT_MARKER)) {
        process.stdout.write(line.trim() ? `  ${line}\n` : '\n');
        continue;
      }
      try {
        result = JSON.parse(line.slice(RESULT_MARKER.length));
      } catch {
        say(`unreadable result line: ${line}`);
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    const url = workbenchUrl(server, {
      workspace: dirs.workspace,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: indexJs,
    });
    const consoleLog = path.join(dirs.root, 'browser-console.log');
    const onExit = (code: number) => {
      exitCode = code;
      // The result line may still be on its way (console forwarding is asynchronous).
      const t0 = Date.now();
      const poll = setInterval(() => {
        if (result !== undefined || Date.now() - t0 > 3000) {
          clearInterval(poll);
          resolve();
        }
      }, 50);
    };
    Workbench.open(b, url, { consoleLog, onLog, onExit }).then(
      (w) => (wb = w),
      (err: Error) => {
        say(`could not open the workbench: ${err.message}`);
        resolve();
      },
    );
    void server.exited.then(() => resolve());
    timer = setTimeout(() => {
      say(`the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s`);
      resolve();
    }, SUITE_TIMEOUT_MS).unref();
  });
  // A suite that finished does not hear of its time limit later (the UI tests run meanwhile).
  clearTimeout(timer);
  if (!aborting && (result === undefined || result.failed > 0 || exitCode !== 0)) {
    const shot = await wb?.screenshot(RESULTS_DIR, 'failed-suite').catch(() => undefined);
    if (shot) say(`screenshot: ${path.relative(ROOT, shot)}`);
  }
  await wb?.close().catch(() => undefined);
  workbenchLog.end();
  if (aborting) return false;
  if (result) {
    counts.passed += result.passed;
    counts.failed += result.failed;
    counts.skipped += result.pending;
    if (result.files === 0) say('no test files found in out/test/vscode/suite');
  } else {
    if (exitCode !== undefined) say(`the extension host ended the suite (exit ${exitCode}) without a result line`);
    counts.failed += 1;
  }
  const ok = result !== undefined && result.failed === 0 && exitCode === 0;
  if (!ok) say(`suite logs kept in ${dirs.root} (code-server.log, workbench.log, browser-console.log, ud/logs)`);
  await stopServer(server, dirs);
  if (ok && !args.has('--keep')) fs.rmSync(dirs.root, { recursive: true, force: true });
  return ok;
}

/** `work`, or an error once `ms` passed (the caller closes the page, which ends the work). */
async function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function runUi(tools: Tools, b: Browser): Promise<void> {
  const { dirs, server } = await startServer(tools, 'ui', UI_SETTINGS);
  const url = workbenchUrl(server, { workspace: dirs.workspace, extensionDevelopmentPath: ROOT });
  let allOk = true;
  const grep = process.env.UE_TEST_GREP ? new RegExp(process.env.UE_TEST_GREP) : undefined;
  for (const t of UI_TESTS.filter((u) => !grep || grep.test(`ui: ${u.name}`))) {
    const started = Date.now();
    let wb: Workbench | undefined;
    try {
      wb = await Workbench.open(b, url, { consoleLog: path.join(dirs.root, 'browser-console.log') });
      await wb.waitReady();
      await withinTime(t.fn(wb), UI_TEST_TIMEOUT_MS);
      if (aborting) return;
      counts.passed += 1;
      process.stdout.write(`  ✔ ui: ${t.name} (${Date.now() - started} ms)\n`);
    } catch (err) {
      if (aborting) return;
      allOk = false;
      counts.failed += 1;
      process.stdout.write(`  ✘ ui: ${t.name}\n    ${String((err as Error).stack ?? err).replace(/\n/g, '\n    ')}\n`);
      const safe = t.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
      const shot = await wb?.screenshot(RESULTS_DIR, `failed-${safe}`).catch(() => undefined);
      if (shot) say(`screenshot: ${path.relative(ROOT, shot)}`);
    } finally {
      await wb?.close().catch(() => undefined);
    }
  }
  if (!allOk) say(`ui logs kept in ${dirs.root}`);
  await stopServer(server, dirs);
  if (allOk && !args.has('--keep')) fs.rmSync(dirs.root, { recursive: true, force: true });
}

/** Whether the run that made a run dir (`<name>-<date>-<time>-<pid>`) is still going. */
function runGoing(dir: string): boolean {
  const pid = Number(/-(\d+)$/.exec(dir)?.[1]);
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Keeps the newest few run dirs (failed runs leave theirs for reading), by their time, not their name (`suite-…`
 * sorts before `ui-…`), and never one whose run is still going (another run in this checkout).
 */
function pruneRuns(keep = 6): void {
  if (!fs.existsSync(RUNS_DIR)) return;
  const stamp = (d: string) => d.replace(/^[a-z]+-/, '');
  const byTime = fs.readdirSync(RUNS_DIR).sort((a, b) => stamp(a).localeCompare(stamp(b)));
  for (const d of byTime.slice(0, -keep).filter((d) => !runGoing(d)))
    fs.rmSync(path.join(RUNS_DIR, d), { recursive: true, force: true });
}

async function main(): Promise<void> {
  const t0 = Date.now();
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => void abort(`${sig}: stopping`, 130));
  }
  const tools = ensureTools(); // the first time: installs Node 24 and code-server (~2 min)
  buildExtension();
  const { indexJs, testFiles } = await buildSuite();
  say(`built the extension and the suite (${testFiles} test file(s))`);
  setTimeout(() => void abort(`timed out after ${RUN_TIMEOUT_MS / 1000} s`), RUN_TIMEOUT_MS).unref();
  // index.ts tags its output lines only when this is set (desktop VS Code prints them plainly).
  process.env.UE_TAG_OUTPUT = '1';
  pruneRuns();
  say(`starting Chromium (${tools.chromium})`);
  browser = await launchBrowser(tools.chromium);
  if (!args.has('--ui-only')) {
    const t = Date.now();
    await runSuite(tools, browser, indexJs);
    if (aborting) return;
    say(`suite done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  if (!args.has('--suite-only')) {
    const t = Date.now();
    await runUi(tools, browser);
    if (aborting) return;
    say(`ui tests done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  if (aborting) return;
  await cleanup();
  say(`total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  finish();
}

main().catch((err: Error) => void abort(err instanceof ToolError ? err.message : `error: ${err.stack ?? err.message}`));
