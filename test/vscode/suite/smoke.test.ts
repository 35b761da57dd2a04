// The extension is installed in the real extension host and activates.
import * as assert from 'node:assert/strict';
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
});
