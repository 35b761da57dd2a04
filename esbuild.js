// Bundles the extension and the emulator. `node esbuild.js --watch` rebuilds on change.
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
 * Keeps the extension bundle small without dropping a dependency:
 * - undici: only the Agent and its request API (what src/api/http.ts uses), not fetch, WebSocket, mocks and caches;
 * - mime-types (form-data's, with its 137 KB database): form-data looks a type up only for a part without a
 *   contentType, and the client always passes one, so a lookup that finds nothing stands in for it.
 */
const slimDependencies = {
  name: 'slim-dependencies',
  setup(build) {
    const modules = {
      undici:
        "const Dispatcher = require('undici/lib/dispatcher/dispatcher');\n" +
        "Object.assign(Dispatcher.prototype, require('undici/lib/api'));\n" +
        "module.exports = { Agent: require('undici/lib/dispatcher/agent') };\n",
      'mime-types': 'module.exports = { lookup: () => false };\n',
    };
    build.onResolve({ filter: /^(undici|mime-types)$/ }, (args) => ({ path: args.path, namespace: 'slim' }));
    build.onLoad({ filter: /.*/, namespace: 'slim' }, (args) => ({ contents: modules[args.path], resolveDir: __dirname, loader: 'js' }));
  },
};

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [slimDependencies] },
  { ...common, entryPoints: ['src/emulator/cli.ts'], outfile: 'dist/emulator.js' },
  // The restriction log page: runs in the webview, loaded from media/ (the panel's only local resource root).
  { ...common, platform: 'browser', format: 'iife', target: 'es2020', sourcemap: false, entryPoints: ['src/webview/page/restrictionLog.ts'], outfile: 'media/restrictionLog/main.js' },
];

module.exports = { builds, slimDependencies };

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
