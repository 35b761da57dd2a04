// The extension is installed in the real extension host and activates.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';

const EXTENSION_ID = 'universe-explorer.universe-explorer';

suite('smoke', () => {
  test('the extension is present', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not among the loaded extensions`);
    assert.equal(ext.packageJSON.name, 'universe-explorer');
  });

  test('the extension activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  test('the commands package.json declares are exactly the commands the extension registers', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const declared = (ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command).sort();
    const registered = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('universeExplorer.'));
    // VS Code registers `<view id>.focus`, `.resetViewLocation` and the like for each contributed view.
    const views = (ext.packageJSON.contributes.views.universeExplorer as { id: string }[]).map((v) => `${v.id}.`);
    const ours = registered.filter((id) => !views.some((view) => id.startsWith(view))).sort();
    assert.deepEqual(ours, declared);
  });

  test('the extension leaves a code cache of its bundle in its global storage, for the next window to start from', async () => {
    const ext = vscode.extensions.getExtension<{ testing: { ctx: { extension: vscode.ExtensionContext } } }>(
      EXTENSION_ID,
    );
    assert.ok(ext);
    const api = await ext.activate();
    const storage = api.testing.ctx.extension.globalStorageUri.fsPath;
    const caches = () =>
      (fs.existsSync(storage) ? fs.readdirSync(storage) : []).filter((f) => f.startsWith('code-cache-'));
    // Written a second after activation (or when the extension is deactivated).
    for (let waited = 0; caches().length === 0 && waited < 20_000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    assert.equal(caches().length, 1, caches().join(', '));
    assert.match(caches()[0], /^code-cache-[0-9a-f]{32}\.bin$/);
  });
});
