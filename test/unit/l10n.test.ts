// User-facing text: t`…` (src/core/text.ts) reads as English without a bundle, and l10n/bundle.l10n.json lists every
// message of src/ (npm run l10n writes it).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { BUNDLE, bundleText, messagesIn } from '../../scripts/l10n';
import { fromBundle, messageOf, t, useTranslator } from '../../src/core/text';

describe('user-facing text', () => {
  it('t puts the values where the message has {0}, {1}…, in order', () => {
    const key = 'Player_{1}';
    assert.equal(t`Deleted "${key}" from ${'Inventory'}.`, 'Deleted "Player_{1}" from Inventory.');
    assert.equal(messageOf(['Deleted "', '" from ', '.']), 'Deleted "{0}" from {1}.');
    assert.equal(t`Plain`, 'Plain');
  });

  it('a webview page translates from the bundle the host sends, and keeps English for what it lacks', () => {
    const translate = fromBundle({ 'Deleted "{0}" from {1}.': '«{0}» aus {1} gelöscht.', Lifted: 'Aufgehoben' });
    assert.equal(translate('Deleted "{0}" from {1}.', 'k', 'Store'), '«k» aus Store gelöscht.');
    assert.equal(translate('Active'), 'Active');
    assert.equal(translate('toString'), 'toString');
    try {
      useTranslator(translate);
      assert.equal(t`Lifted`, 'Aufgehoben');
    } finally {
      useTranslator();
    }
  });

  it('finds each t`…` with its message, and nothing else', () => {
    const text = [
      'const a = t`Saved ${key} at ${time}`;',
      'const b = `not ${user} facing`;',
      'const c = t`Line\\nbreak`; const d = other`x`;',
    ].join('\n');
    assert.deepEqual(messagesIn('x.ts', text), ['Saved {0} at {1}', 'Line\nbreak']);
  });

  it('l10n/bundle.l10n.json holds every message in src (run npm run l10n)', () => {
    const bundle = JSON.parse(bundleText()) as Record<string, string>;
    assert.ok(Object.keys(bundle).length > 0, 'no t`…` in src');
    assert.equal(fs.readFileSync(BUNDLE, 'utf8'), bundleText());
  });

  it('package.json reads its texts from package.nls.json: each %key% exists there, and each key there is used', () => {
    const root = path.join(__dirname, '../..');
    const manifest = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
    const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const used = new Set([...manifest.matchAll(/"%([\w.-]+)%"/g)].map((m) => m[1]));
    assert.deepEqual(
      [...used].filter((k) => !(k in nls)),
      [],
    );
    assert.deepEqual(
      Object.keys(nls).filter((k) => !used.has(k)),
      [],
    );
  });

  it('no title or description in package.json is English in place', () => {
    const root = path.join(__dirname, '../..');
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      displayName: string;
      description: string;
      contributes: Record<string, unknown>;
    };
    const literal: string[] = [];
    // A language model tool's name is an id, and its input schema is read by the model, not shown to people.
    const forModels = (where: string) => /^contributes\.languageModelTools\[\d+\]\.(name|inputSchema)$/.test(where);
    const visit = (value: unknown, where: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${where}[${i}]`));
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (forModels(`${where}.${k}`)) continue;
          const shown = ['title', 'category', 'name', 'contextualTitle', 'contents', 'description'];
          if (shown.includes(k) || k === 'markdownDescription' || k === 'displayName') {
            if (typeof v === 'string' && !/^%[\w.-]+%$/.test(v)) literal.push(`${where}.${k}`);
          }
          visit(v, `${where}.${k}`);
        }
      }
    };
    visit({ displayName: manifest.displayName, description: manifest.description }, 'package');
    visit(manifest.contributes, 'contributes');
    assert.deepEqual(literal, []);
  });
});
