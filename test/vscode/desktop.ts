// `npm run test:desktop`: the same mocha suite in desktop VS Code through @vscode/test-electron, for
// machines with internet (it downloads VS Code into .tools/vscode-test/ on first use; this offline machine
// cannot, so CI and `npm test` use code-server through run.ts instead).
// Env: VSCODE_VERSION (default "stable", or e.g. "1.95.0"), VSCODE_EXECUTABLE (use an installed
// VS Code instead of downloading), UE_TEST_GREP, UE_TEST_TIMEOUT_MS.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { ROOT, makeRunDir } from '../../scripts/code-server';
import { buildExtension, buildSuite } from './build';

const RESULT_MARKER = '@@RESULT '; // see suite/index.ts

async function main(): Promise<number> {
  buildExtension();
  const { indexJs } = await buildSuite();
  const dirs = makeRunDir(path.join(ROOT, '.test-runs'), 'desktop', path.join(ROOT, 'test/vscode/workspace'));

  // test-electron copies VS Code's output to our stdout: read the suite's result line on the way.
  let result: { passed: number; failed: number; pending: number } | undefined;
  const write = process.stdout.write.bind(process.stdout);
  let pending = '';
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const at = line.indexOf(RESULT_MARKER);
      if (at >= 0) {
        try {
          result = JSON.parse(line.slice(at + RESULT_MARKER.length));
        } catch {
          /* shown as is */
        }
      }
    }
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;

  let code: number;
  try {
    code = await runTests({
      version: process.env.VSCODE_VERSION || 'stable',
      vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || undefined,
      cachePath: path.join(ROOT, '.tools/vscode-test'), // git-ignored
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: indexJs,
      launchArgs: [
        dirs.workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--user-data-dir=${dirs.userData}`,
        `--extensions-dir=${dirs.extensions}`,
      ],
    });
  } catch (err) {
    process.stdout.write = write;
    console.error(`test:desktop could not run VS Code: ${(err as Error).message ?? err}`);
    console.error(
      'It downloads VS Code on first use and needs internet; offline, use `npm run test:vscode` (code-server).',
    );
    code = 1;
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
  process.stdout.write = write;
  const passed = result?.passed ?? 0;
  const failed = result ? result.failed : 1;
  const skipped = result && result.pending > 0 ? `, ${result.pending} skipped` : '';
  write(`${passed} passed, ${failed} failed${skipped}\n`);
  if (code === 0) fs.rmSync(dirs.root, { recursive: true, force: true });
  return code === 0 && failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.stack ?? err.message);
    process.exit(1);
  },
);
