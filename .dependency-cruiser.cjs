// The layout's rules (docs/ARCHITECTURE.md, "Layers and their rules"), checked by `npm run lint` in `npm test`.
// Type-only imports count too (tsPreCompilationDeps), so a cycle or a forbidden import in types is caught as well.
const areas = '(datastores|assets|restrictions|sandbox|queries|players|agents|ordered|memory)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycles, at run time or in types.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-knows-no-area',
      severity: 'error',
      comment: 'src/core is what every area uses; it never names an area (extension.ts wires them).',
      from: { path: '^src/core/' },
      to: { path: `^src/${areas}/` },
    },
    {
      name: 'areas-apart',
      severity: 'error',
      comment: 'An area never imports another area.',
      from: { path: `^src/${areas}/` },
      to: { path: `^src/${areas}/`, pathNot: '^src/$1/' },
    },
    {
      name: 'api-and-emulator-without-vscode',
      severity: 'error',
      comment: 'The client and the emulator run without VS Code.',
      from: { path: '^src/(api|emulator)/' },
      to: { path: '^node_modules/@types/vscode/|^vscode$' },
    },
    {
      name: 'api-and-emulator-apart',
      severity: 'error',
      comment: 'Two independent readings of the reference: neither borrows from the other.',
      from: { path: '^src/(api|emulator)/' },
      to: { path: '^src/(api|emulator)/', pathNot: '^src/$1/' },
    },
    {
      name: 'query-on-api-only',
      comment: 'src/query (the index on DuckDB) runs without VS Code and builds on the client alone.',
      severity: 'error',
      from: { path: '^src/query/' },
      to: { path: '^src/|^node_modules/@types/vscode/|^vscode$', pathNot: '^src/(query|api)/' },
    },
    {
      name: 'api-and-emulator-without-query',
      severity: 'error',
      comment: 'The index builds on the client, never the other way round; the emulator knows neither.',
      from: { path: '^src/(api|emulator)/' },
      to: { path: '^src/query/' },
    },
    {
      name: 'cli-without-editor',
      severity: 'error',
      comment:
        'The command line (src/cli, dist/cli.js) runs in plain Node on the client, the index and the emulator: ' +
        'never VS Code, core or an area.',
      from: { path: '^src/cli/' },
      to: { path: `^src/(core|${areas.slice(1, -1)})/|^src/extension\\.ts$|^node_modules/@types/vscode/|^vscode$` },
    },
    {
      name: 'nothing-imports-cli',
      severity: 'error',
      comment: 'The command line is an entry point of its own: the rest of src never imports it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'tools-on-api-and-query-only',
      severity: 'error',
      comment:
        'The agent tools (src/tools) are defined once for every face (the MCP server, VS Code language model tools): ' +
        'they build on the client and the index alone, never on VS Code, core, an area or a face.',
      from: { path: '^src/tools/' },
      to: { path: '^src/|^node_modules/@types/vscode/|^vscode$', pathNot: '^src/(tools|api|query)/' },
    },
    {
      name: 'mcp-on-tools',
      severity: 'error',
      comment: 'The MCP server (src/mcp, dist/mcp.js) offers the agent tools over the client and the index only.',
      from: { path: '^src/mcp/' },
      to: { path: '^src/|^node_modules/@types/vscode/|^vscode$', pathNot: '^src/(mcp|tools|api|query)/' },
    },
    {
      name: 'only-cli-imports-mcp',
      severity: 'error',
      comment: 'The MCP server is started by the command line (universe-explorer mcp) and by nothing else.',
      from: { path: '^src/', pathNot: '^src/(cli|mcp)/' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'src-without-tests',
      severity: 'error',
      comment: 'The product never imports its tests.',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // esbuild.js: the resolver takes its require('esbuild') for the file itself.
    exclude: { path: ['^(dist|out|\\.tools|media)/', '^esbuild\\.js$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
