// The settings npm start and the test runs write for code-server: quiet, and no port forwarding toasts for the
// ports the sandbox and the tests open.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { runDirsAt, writeUserSettings } from '../../scripts/code-server';

test('user settings turn off port auto-forwarding, and settings given (a user’s own) win over the quiet ones', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-settings-'));
  try {
    const dirs = runDirsAt(root);
    writeUserSettings(dirs, { 'universeExplorer.sandbox.autoStart': true, 'workbench.startupEditor': 'readme' });
    const written = JSON.parse(fs.readFileSync(path.join(dirs.userData, 'User/settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.equal(written['remote.autoForwardPorts'], false);
    assert.equal(written['remote.restoreForwardedPorts'], false);
    assert.deepEqual(written['remote.otherPortsAttributes'], { onAutoForward: 'ignore' });
    assert.equal(written['universeExplorer.sandbox.autoStart'], true);
    assert.equal(written['workbench.startupEditor'], 'readme');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
