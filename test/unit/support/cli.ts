// The command line as it ships: dist/cli.js and the bundles beside it (undici, the query engine, the emulator, the MCP
// server), built the way esbuild.js builds them into a folder of the project (so that DuckDB's bindings are found in
// node_modules), once per test process, and run as a child process against an emulator over loopback HTTP.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '../../..');

/** A key no output may show, not even a piece of it. */
export const CLI_KEY = 'cli-SECRET-k3y-Zq81xW';

let bundle: Promise<string> | undefined;

/** Builds dist/cli.js and the bundles it requires into out/cli-*, once; resolves to the cli.js path. */
export function buildCli(): Promise<string> {
  bundle ??= (async () => {
    const { build } = await import('esbuild');
    const { builds } = require(path.join(ROOT, 'esbuild.js')) as { builds: esbuild.BuildOptions[] };
    fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(ROOT, 'out', 'cli-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const wanted = ['dist/cli.js', 'dist/undici.js', 'dist/query.js', 'dist/emulator.js', 'dist/mcp.js'];
    await Promise.all(
      wanted.map((outfile) => {
        const options = builds.find((b) => b.outfile === outfile);
        assert.ok(options, `esbuild.js builds ${outfile}`);
        const out = path.join(dir, path.basename(outfile));
        return build({ ...options, absWorkingDir: ROOT, outfile: out, sourcemap: false, logLevel: 'warning' });
      }),
    );
    return path.join(dir, 'cli.js');
  })();
  return bundle;
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout read as the one JSON object --json writes. */
  json(): Record<string, unknown>;
}

/** The environment of a run: this one without UE_API_KEY, plus `env` (UE_API_KEY: CLI_KEY unless given). */
export function envOf(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const { UE_API_KEY: _, ...rest } = process.env;
  const merged: NodeJS.ProcessEnv = { ...rest, UE_API_KEY: CLI_KEY };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

/** Starts `node cli.js <args>`; stdout and stderr are collected. */
export async function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ child: ChildProcess; done: Promise<Ran> }> {
  const child = spawn(process.execPath, [await buildCli(), ...args], {
    env: envOf(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<Ran>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      // Whatever happened, the key is never in what the command wrote (nor its first 8 characters).
      const shown = [stdout, stderr].find((text) => text.includes(CLI_KEY.slice(0, 8)));
      if (shown !== undefined) {
        reject(new assert.AssertionError({ message: `the API key showed in the output:\n${shown}` }));
        return;
      }
      resolve({
        code,
        stdout,
        stderr,
        json: () => {
          const lines = stdout.trim().split('\n');
          assert.equal(lines.length, 1, `one JSON line on stdout, not:\n${stdout}`);
          return JSON.parse(lines[0]) as Record<string, unknown>;
        },
      });
    });
  });
  return { child, done };
}

/** Runs `node cli.js <args>` to its end. */
export async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  return (await spawnCli(args, env)).done;
}

export interface HoldingProxy {
  url: string;
  /** Resolves when the first request that `hold` picks has arrived (and is being held). */
  held: Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback proxy to `target` that forwards every request but those `hold(path with query)` picks, which it keeps
 * unanswered until it closes: a gate that stops a run at a known request.
 */
export async function holdingProxy(target: string, hold: (url: string) => boolean): Promise<HoldingProxy> {
  const to = new URL(target);
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (hold(req.url ?? '')) {
      arrived();
      return;
    }
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => res.destroy(err));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
