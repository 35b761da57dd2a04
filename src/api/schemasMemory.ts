// zod schemas for ordered data stores and memory stores (cloud v2) as the live service answers them, every spelling
// the reference lists (open-api-ordered-memory.md §2 to §5, decisions of §9). An array left out or null reads as
// empty, a page token "" or absent as the last page. Returned `path` values are never read, except a queue item's
// id (its answer has no `id`) and an operation's id (its last segment, U14).
import * as z from 'zod/mini';
import { isRecord, optionalString, pageToken, preprocess } from './schemas';

/** An array that may be left out or null. */
const list = <S extends z.ZodMiniType>(item: S) =>
  z.pipe(
    z.nullish(z.array(item)),
    z.transform((v) => v ?? []),
  );

/** Any JSON value, null included; only a missing one is refused. */
const jsonValue = () => z.custom<unknown>((v) => v !== undefined, 'expected a JSON value');

/** The last segment of a returned path, decoded; "" when there is none. */
export function lastSegment(path: string | undefined): string {
  const last = path?.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

// ---- Ordered data stores (§2) ----

/** A double on the wire, always a whole number; an int64 as decimal text (proto3 JSON, the v1 twin) is read too. */
const orderedValue = () =>
  preprocess((v) => (typeof v === 'string' && /^-?\d{1,19}$/.test(v) ? Number(v) : v), z.number());

/** Get, Create, Update and Increment: the entry; its `id` is filled from the key asked for when left out. */
export const OrderedEntrySchema = z.lazy(() =>
  z.looseObject({ path: optionalString(), id: optionalString(), value: orderedValue() }),
);

/** Listed entries must name their key. */
export const OrderedListSchema = z.lazy(() =>
  z.looseObject({
    orderedDataStoreEntries: list(z.looseObject({ id: z.string(), value: orderedValue() })),
    nextPageToken: pageToken(),
  }),
);

// ---- Sorted maps (§3) ----

/** A sorted map item as the client gives it: one sort key (number or string) or none. */
export interface SortedMapItem {
  key: string;
  value: unknown;
  sortKey?: number | string;
  /** Opaque (U12); changes on every write. */
  etag?: string;
  /** RFC 3339 UTC, any count of fraction digits. */
  expireTime?: string;
}

/** `value` must be there (null accepted, U25); at most one sort key, each may be null (none). */
export const SortedMapItemSchema = z.lazy(() =>
  z.pipe(
    z
      .looseObject({
        id: z.string(),
        value: jsonValue(),
        etag: optionalString(),
        expireTime: optionalString(),
        numericSortKey: z.nullish(z.number()),
        stringSortKey: z.nullish(z.string()),
      })
      .check(
        z.refine((v) => v.numericSortKey == null || v.stringSortKey == null, {
          message: 'expected one sort key, got both a numeric and a string one',
          path: ['stringSortKey'],
        }),
      ),
    z.transform((v): SortedMapItem => ({
      key: v.id,
      value: v.value,
      sortKey: v.numericSortKey ?? v.stringSortKey ?? undefined,
      etag: v.etag,
      expireTime: v.expireTime,
    })),
  ),
);

/** A single item's answer for a known key: 2024 Update answers left `id` out (U13). */
export function sortedMapItemFor(key: string) {
  return preprocess((v) => (isRecord(v) && v.id == null ? { ...v, id: key } : v), SortedMapItemSchema);
}

/** `items` on the wire throughout (the spec said `memoryStoreSortedMapItems` until 2026-08). */
export const SortedMapListSchema = z.lazy(() =>
  preprocess(
    (v) =>
      isRecord(v) && v.items == null && v.memoryStoreSortedMapItems != null
        ? { ...v, items: v.memoryStoreSortedMapItems }
        : v,
    z.looseObject({ items: list(SortedMapItemSchema), nextPageToken: pageToken() }),
  ),
);

// ---- Queues (§4) ----

export interface QueueItem {
  /** Taken from the returned `path` (the live answer has no `id`); absent in the 2024 read answer. */
  id?: string;
  data: unknown;
  /** 0 when left out or null (proto3 JSON leaves a zero out). */
  priority: number;
  expireTime?: string;
}

export const QueueItemSchema = z.lazy(() =>
  z.pipe(
    z.looseObject({
      path: optionalString(),
      id: optionalString(),
      data: jsonValue(),
      priority: z.nullish(z.number()),
      expireTime: optionalString(),
    }),
    z.transform((v): QueueItem => ({
      id: v.id ?? (lastSegment(v.path) || undefined),
      data: v.data,
      priority: v.priority ?? 0,
      expireTime: v.expireTime,
    })),
  ),
);

/**
 * A read, in any of its three shapes (U1): live `{id, queueItems}`, the spec's `{readId, items}`, 2024's
 * `{id, data: [values]}`. Items need the read's id, which is what discards them.
 */
export const QueueReadSchema = z.lazy(() =>
  preprocess(
    (v) => {
      if (!isRecord(v)) return v;
      const values = Array.isArray(v.data) ? v.data.map((data: unknown) => ({ data })) : v.data;
      return { ...v, readId: v.id ?? v.readId, items: v.queueItems ?? v.items ?? values };
    },
    z
      .looseObject({ readId: optionalString(), items: list(QueueItemSchema) })
      .check(z.refine((v) => v.items.length === 0 || !!v.readId, { message: 'expected the read id', path: ['id'] })),
  ),
);

// ---- Flush and its operation (§5) ----

/** `google.rpc.Status`: `code` is an integer there. */
const StatusSchema = z.lazy(() =>
  z.looseObject({
    code: z.union([z.number(), z.string()]),
    message: z._default(z.string(), ''),
    details: z.optional(z.array(z.unknown())),
  }),
);

/** `done` null or left out means still running; the id is the path's last segment, whichever path form (U14). */
export const MemoryOperationSchema = z.lazy(() =>
  z.pipe(
    z
      .looseObject({
        path: z.string(),
        done: z.pipe(
          z.nullish(z.boolean()),
          z.transform((v) => v === true),
        ),
        error: z.nullish(StatusSchema),
        response: z.optional(z.unknown()),
        metadata: z.optional(z.unknown()),
      })
      .check(
        z.refine((v) => lastSegment(v.path) !== '', {
          message: 'expected a path ending in the operation id',
          path: ['path'],
        }),
      ),
    z.transform(({ error, ...op }) => ({ ...op, error: error ?? undefined, operationId: lastSegment(op.path) })),
  ),
);

export type MemoryOperation = z.output<typeof MemoryOperationSchema>;
