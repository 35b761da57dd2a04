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

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/emulator/cli.ts'], outfile: 'dist/emulator.js' },
  // The restriction log page: runs in the webview, loaded from media/ (the panel's only local resource root).
  { ...common, platform: 'browser', format: 'iife', target: 'es2020', sourcemap: false, entryPoints: ['src/webview/page/restrictionLog.ts'], outfile: 'media/restrictionLog/main.js' },
];

async function main() {
  if (process.argv.includes('--watch')) {
    for (const b of builds) await (await esbuild.context(b)).watch();
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
