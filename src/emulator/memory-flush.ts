// Flushing a universe's memory stores (open-api-ordered-memory.md, sections 5 and 7.5, U14, U15):
// `POST memory-store:flush?scope=LIVE|TEST` (no body, or `{}`) answers an Operation {path, done:false}. Once
// `flushDelayMs` has passed on the emulator's clock the flush takes effect (memory-common.ts settle(), before any
// memory-store request of the universe): a LIVE flush removes every sorted map and queue, writes made before then
// included; the emulator keeps no TEST (Studio) data, so a TEST flush removes nothing. The operation then answers
// done:true with an empty FlushMemoryStoreResponse. It is polled at `memory-store/operations/{id}` (its path) and at
// `operations/{id}`; both need the flush permission.
import { randomBytes } from 'node:crypto';
import { ApiError } from './errors';
import { sendJson, type Ctx, type Route } from './http';
import { memoryOf, memoryRoute, readFields, SCOPES, settle } from './memory-common';
import type { FlushOp } from './memory-records';
import { oneOf } from './params';

const RESPONSE_TYPE = 'type.googleapis.com/roblox.open_cloud.cloud.v2.FlushMemoryStoreResponse';

const scopeOf = (ctx: Ctx): FlushOp['scope'] => oneOf(ctx, 'scope', ['LIVE', 'TEST'] as const, 'LIVE');

const render = (ctx: Ctx, op: FlushOp): Record<string, unknown> => ({
  path: `cloud/v2/universes/${ctx.universeId}/memory-store/operations/${op.id}`,
  done: op.done,
  ...(op.done && { response: { '@type': RESPONSE_TYPE } }),
});

async function flush(ctx: Ctx): Promise<void> {
  const scope = scopeOf(ctx);
  await readFields(ctx, true);
  const op: FlushOp = {
    id: randomBytes(24).toString('base64url'),
    scope,
    doneAt: ctx.app.clock.now() + ctx.app.flushDelayMs,
    done: false,
  };
  ctx.app.store.commit([{ t: 'mop', u: ctx.universeId, op }]);
  settle(ctx); // with no delay, done at once
  sendJson(ctx, 200, render(ctx, memoryOf(ctx).flushes.get(op.id)!));
}

function getOperation(ctx: Ctx): void {
  scopeOf(ctx);
  const op = memoryOf(ctx).flushes.get(ctx.params.operationId);
  if (!op) throw new ApiError(404, 'Operation not found.');
  sendJson(ctx, 200, render(ctx, op));
}

export const flushRoutes: Route[] = [
  memoryRoute('POST', 'memory-store:flush', flush, SCOPES.flush),
  memoryRoute('GET', 'memory-store/operations/{operationId}', getOperation, SCOPES.flush),
  memoryRoute('GET', 'operations/{operationId}', getOperation, SCOPES.flush),
];
