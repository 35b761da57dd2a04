// Bundles the extension, the emulator and the command line. `node esbuild.js --watch` rebuilds on change.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify: process.argv.includes('--minify'),
  logLevel: 'warning',
};

/**
 * Only what src/api/exchange.ts uses of undici, its Agent (dispatch) and header parser, not its request API, fetch,
 * WebSocket, mocks and caches.
 */
const undiciAgent =
  "const { parseHeaders } = require('undici/lib/core/util');\n" +
  "module.exports = { Agent: require('undici/lib/dispatcher/agent'), util: { parseHeaders } };\n";

/**
 * Keeps the extension bundle small and its activation fast without dropping a dependency:
 * - undici goes to its own bundle, dist/undici.js, which the transport requires when the first client is made
 *   (nothing checks undici's classes with instanceof, so a module of its own changes nothing);
 * - the query index's DuckDB side (src/query/engine.ts with @duckdb/node-api) goes to dist/query.js, which an index
 *   requires when first used; the engine defines no classes another bundle checks with instanceof;
 * - mime-types (form-data's, with its 137 KB database): form-data looks a type up only for a part without a
 *   contentType, and the client always passes one, so a lookup that finds nothing stands in for it.
 */
const slimDependencies = {
  name: 'slim-dependencies',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
    build.onResolve({ filter: /^\.\/engine$/ }, (args) =>
      /[\\/]src[\\/]query$/.test(args.resolveDir) ? { path: './query.js', external: true } : undefined,
    );
    build.onResolve({ filter: /^mime-types$/ }, () => ({ path: 'mime-types', namespace: 'slim' }));
    build.onLoad({ filter: /.*/, namespace: 'slim' }, () => ({
      contents: 'module.exports = { lookup: () => false };\n',
      loader: 'js',
    }));
  },
};

/**
 * Leaves dist/extension.js pure ASCII: esbuild escapes every other character itself except in tagged templates
 * (t`Loading…`), whose raw text is visible to the tag; ours reads only the cooked text, which an escape leaves the
 * same. src/main.ts then decodes the bundle as Latin-1 (a copy, not a UTF-8 decode) and V8 keeps it in one byte a
 * character. Columns after an escaped character shift on its line (the source map is off by a few there).
 */
const asciiOnly = {
  name: 'ascii-only',
  setup(build) {
    build.onEnd(async (result) => {
      // A build kept in memory (write: false, as some tests build) is left as it is.
      if (result.errors.length || build.initialOptions.write === false) return;
      const { outfile, absWorkingDir } = build.initialOptions;
      const file = path.resolve(absWorkingDir ?? process.cwd(), outfile);
      const text = await fs.promises.readFile(file, 'utf8');
      if (!/[^\0-\x7f]/.test(text)) return;
      const escaped = text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      await fs.promises.writeFile(file, escaped);
    });
  },
};

/**
 * The command line (dist/cli.js) loads the emulator from its own bundle beside it, dist/emulator.js, and only for the
 * `emulator` command; the emulator defines no classes the command line checks with instanceof.
 */
const emulatorBeside = {
  name: 'emulator-beside',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/emulator\/cli$/ }, (args) =>
      /[\\/]src[\\/]cli$/.test(args.resolveDir) ? { path: './emulator.js', external: true } : undefined,
    );
  },
};

/**
 * The command line loads the MCP server (src/mcp with the agent tools and the MCP SDK) from its own bundle beside it,
 * dist/mcp.js, and only for the `mcp` command. The server makes its own client and indexes from plain options, so no
 * class crosses the two bundles.
 */
const mcpBeside = {
  name: 'mcp-beside',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/\.\.\/mcp\/main$/ }, (args) =>
      /[\\/]src[\\/]cli[\\/]commands$/.test(args.resolveDir) ? { path: './mcp.js', external: true } : undefined,
    );
  },
};

const builds = [
  // The entry (package.json main): compiles dist/extension.js with a V8 code cache (src/main.ts).
  { ...common, entryPoints: ['src/main.ts'], outfile: 'dist/main.js', external: ['vscode'] },
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    plugins: [slimDependencies, asciiOnly],
  },
  {
    ...common,
    stdin: { contents: undiciAgent, resolveDir: __dirname, sourcefile: 'undici-agent.js', loader: 'js' },
    outfile: 'dist/undici.js',
  },
  { ...common, entryPoints: ['src/emulator/cli.ts'], outfile: 'dist/emulator.js' },
  // The command line (package.json bin: universe-explorer), slim as the extension: undici, DuckDB and the emulator
  // are the bundles beside it, each required when first used.
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [slimDependencies, emulatorBeside, mcpBeside],
  },
  // The MCP server of `universe-explorer mcp`, required by dist/cli.js for that command only.
  { ...common, entryPoints: ['src/mcp/main.ts'], outfile: 'dist/mcp.js', plugins: [slimDependencies] },
  // DuckDB's JavaScript API with the index's engine. The native bindings stay outside, found at run time in
  // node_modules/@duckdb/node-bindings (and its platform package, e.g. @duckdb/node-bindings-linux-x64).
  {
    ...common,
    entryPoints: ['src/query/engine.ts'],
    outfile: 'dist/query.js',
    external: ['@duckdb/node-bindings', '@duckdb/node-bindings-*'],
  },
  // The restriction log page: runs in the webview, loaded from media/ (the panel's only local resource root).
  {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    sourcemap: false,
    entryPoints: ['src/restrictions/log/page/main.ts'],
    outfile: 'media/restrictionLog/main.js',
  },
  // The query results page, the same way.
  {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    sourcemap: false,
    entryPoints: ['src/queries/results/page/main.ts'],
    outfile: 'media/queryResults/main.js',
  },
  // The review page, the same way.
  {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    sourcemap: false,
    entryPoints: ['src/core/review/page/main.ts'],
    outfile: 'media/review/main.js',
  },
  // The player page, the same way.
  {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    sourcemap: false,
    entryPoints: ['src/players/page/main.ts'],
    outfile: 'media/players/main.js',
  },
];

module.exports = { builds, slimDependencies, emulatorBeside, mcpBeside };

async function main() {
  if (process.argv.includes('--watch')) {
    for (const b of builds) await (await esbuild.context(b)).watch();
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
