// The extension's log in plain Node (a vscode stand-in answers require('vscode')): a failure is logged with its stack
// and its chain of causes under the one-line message, and no line holds an API key the log was told of.
import './support/vscode';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureDetail } from '../../src/core/errors';
import { Log } from '../../src/core/log';

describe('the log', () => {
  it('logs a failure with its stack and each cause under the message', () => {
    const log = new Log();
    const socket = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    log.error('Failed to take a snapshot: Network error', new Error('Network error', { cause: socket }));
    const [line] = log.lines();
    const [message, ...detail] = line.split('\n');
    assert.equal(message, 'Failed to take a snapshot: Network error');
    assert.equal(detail[0], 'Error: Network error');
    assert.match(detail[1], /^\s+at /);
    assert.ok(detail.includes('Caused by: Error: connect ECONNREFUSED 127.0.0.1:9'), line);
  });

  it('hides every key it was told of, in messages, stacks and causes', () => {
    const log = new Log();
    const key = 'sk-live-5f0a1c2e9b7d4e3f';
    log.hideKey(key);
    log.info(`GET /a?k=${key}`);
    log.warn(`prefix ${key.slice(0, 12)} suffix`);
    log.error('Failed', new Error('outer', { cause: new Error(`inner ${encodeURIComponent(key)}`) }));
    for (const line of log.lines()) assert.ok(!line.includes(key.slice(0, 8)), line);
    assert.match(log.lines()[2], /Caused by: Error: inner \*\*\*/);
  });

  it('follows a chain of causes to its end, and stops at a loop', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    const detail = failureDetail(b);
    assert.equal(detail.match(/Caused by:/g)?.length, 1);
    assert.match(failureDetail('plain text'), /^plain text$/);
  });
});
