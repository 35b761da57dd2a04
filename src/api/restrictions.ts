// User restrictions (cloud v2): list, get, update and the audit log.
import { randomUUID } from 'node:crypto';
import { writes } from './access';
import { jsonBody, seg, type CallOptions, type Transport } from './http';
import { pagePromise, type PagePromise } from './paging';
import {
  ListRestrictionLogsSchema,
  ListUserRestrictionsSchema,
  UserRestrictionSchema,
  type RestrictionLog,
  type UserRestriction,
} from './schemas';

export interface GameJoinRestrictionInput {
  active: boolean;
  /** `<seconds>s`, or a number of seconds; absent or null means permanent. */
  duration?: string | number | null;
  privateReason?: string;
  displayReason?: string;
  excludeAltAccounts?: boolean;
}

export interface IdempotencyKey {
  key: string;
  /** RFC 3339 time the request was first sent. */
  firstSent: string;
}

interface Where {
  universeId: number | string;
  placeId?: number | string;
}

export interface ListRestrictionsArgs extends Where {
  maxPageSize?: number;
  pageToken?: string;
}

export interface ListLogsArgs {
  universeId: number | string;
  /** A user id, or `users/<id>`. */
  user?: number | string;
  /** A place id, or `places/<id>`. */
  place?: number | string;
  maxPageSize?: number;
  pageToken?: string;
}

export interface UpdateRestrictionArgs extends Where {
  userId: number | string;
  gameJoinRestriction: GameJoinRestrictionInput;
  updateMask?: string;
  idempotencyKey?: IdempotencyKey;
}

function resourceName(collection: string, id: number | string): string {
  const s = String(id);
  return s.startsWith(`${collection}/`) ? s : `${collection}/${s}`;
}

function logFilter(args: ListLogsArgs): string | undefined {
  const clauses: string[] = [];
  if (args.user !== undefined) clauses.push(`user == '${resourceName('users', args.user)}'`);
  if (args.place !== undefined) clauses.push(`place == '${resourceName('places', args.place)}'`);
  return clauses.length ? clauses.join(' && ') : undefined;
}

export class RestrictionsApi {
  constructor(private readonly http: Transport) {}

  private collection({ universeId, placeId }: Where): string {
    const place = placeId === undefined ? '' : `/places/${seg(placeId)}`;
    return `/cloud/v2/universes/${seg(universeId)}${place}/user-restrictions`;
  }

  list(args: ListRestrictionsArgs, opts: CallOptions = {}): PagePromise<UserRestriction> {
    return pagePromise(async (pageToken) => {
      const page = await this.http.json(
        {
          method: 'GET',
          access: 'read',
          path: this.collection(args),
          query: { maxPageSize: args.maxPageSize, pageToken },
          retry: 'idempotent',
          signal: opts.signal,
        },
        ListUserRestrictionsSchema,
      );
      return { items: page.userRestrictions, next: page.nextPageToken };
    }, args.pageToken);
  }

  async get(args: Where & { userId: number | string }, opts: CallOptions = {}): Promise<UserRestriction> {
    return this.http.json(
      {
        method: 'GET',
        access: 'read',
        path: `${this.collection(args)}/${seg(args.userId)}`,
        retry: 'idempotent',
        signal: opts.signal,
      },
      UserRestrictionSchema,
    );
  }

  /** The idempotency key (generated when absent) makes the PATCH safe to retry: every attempt sends the same one. */
  async update(args: UpdateRestrictionArgs, opts: CallOptions = {}): Promise<UserRestriction> {
    const key = args.idempotencyKey ?? { key: randomUUID(), firstSent: new Date().toISOString() };
    const { duration, ...rest } = args.gameJoinRestriction;
    const gameJoinRestriction = {
      ...rest,
      ...(duration === undefined ? {} : { duration: typeof duration === 'number' ? `${duration}s` : duration }),
    };
    return this.http.json(
      {
        method: 'PATCH',
        access: writes(args.universeId),
        path: `${this.collection(args)}/${seg(args.userId)}`,
        query: {
          updateMask: args.updateMask,
          'idempotencyKey.key': key.key,
          'idempotencyKey.firstSent': key.firstSent,
        },
        ...jsonBody({ gameJoinRestriction }),
        retry: 'idempotent',
        signal: opts.signal,
      },
      UserRestrictionSchema,
    );
  }

  listLogs(args: ListLogsArgs, opts: CallOptions = {}): PagePromise<RestrictionLog> {
    return pagePromise(async (pageToken) => {
      const page = await this.http.json(
        {
          method: 'GET',
          access: 'read',
          path: `/cloud/v2/universes/${seg(args.universeId)}/user-restrictions:listLogs`,
          query: { maxPageSize: args.maxPageSize, pageToken, filter: logFilter(args) },
          retry: 'idempotent',
          signal: opts.signal,
        },
        ListRestrictionLogsSchema,
      );
      return { items: page.logs, next: page.nextPageToken };
    }, args.pageToken);
  }
}
