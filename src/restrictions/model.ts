// The restrictions model: the restrictions loaded for each universe and place, the places shown under a universe,
// every write through the client, and the event the tree and the log panels follow.
import vscode = require('vscode');
import {
  applyBans,
  planBans,
  planUnbanEverywhere,
  type ApplyBansOptions,
  type ApplyBansResult,
  type BanPlan,
  type GameJoinRestrictionInput,
  type OpenApiClient,
  type Page,
  type PlanBansArgs,
  type RestrictionLog,
  type UnbanEverywhereArgs,
  type UserRestriction,
} from '../api';
import type { Connections } from '../core/connections';
import { settings } from '../core/settings';
import { Pager } from '../core/tree/pager';
import { assertWritable, universeKey, type UniverseAddress } from '../core/universe';
import type { LogFilter } from './log/protocol';

/** Where restrictions are listed and written: a whole universe, or one place of it (placeId). */
export interface RestrictionScope extends UniverseAddress {
  placeId?: number;
}

const scopeKey = (s: RestrictionScope) => `${universeKey(s)}/${s.placeId ?? ''}`;

/** The scope as the client's restriction calls take it. */
const where = (s: RestrictionScope) => ({ universeId: s.universeId, placeId: s.placeId });

export class RestrictionsModel implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<UniverseAddress>();
  /** The restrictions of a universe (at any level) or the places shown under it changed. */
  readonly onDidChange = this.changed.event;
  private readonly lists = new Map<string, Pager<UserRestriction>>();
  private readonly shownPlaces = new Map<string, number[]>();

  constructor(private readonly connections: Connections) {}

  /** The restrictions of the scope loaded so far, and the way to load more. */
  list(scope: RestrictionScope): Pager<UserRestriction> {
    const key = scopeKey(scope);
    let pager = this.lists.get(key);
    if (!pager) {
      pager = new Pager(async (pageToken, signal) => {
        const client = await this.client(scope);
        return client.restrictions.list(
          { ...where(scope), maxPageSize: Math.min(settings().pageSize, 100), pageToken },
          { signal },
        );
      });
      this.lists.set(key, pager);
    }
    return pager;
  }

  /** Forgets what was loaded for the scope; a universe's places too, since its bans show at every place. */
  forget(scope: RestrictionScope): void {
    this.lists.get(scopeKey(scope))?.reset();
    if (scope.placeId === undefined) for (const placeId of this.places(scope)) this.forget({ ...scope, placeId });
  }

  /** The places whose restrictions are shown under the universe, in the order they were asked for. */
  places(u: UniverseAddress): number[] {
    return [...(this.shownPlaces.get(universeKey(u)) ?? [])];
  }

  showPlace(u: UniverseAddress, placeId: number): void {
    const places = this.places(u);
    if (places.includes(placeId)) return;
    this.shownPlaces.set(universeKey(u), [...places, placeId]);
    this.changed.fire(u);
  }

  hidePlace(u: UniverseAddress, placeId: number): void {
    this.shownPlaces.set(
      universeKey(u),
      this.places(u).filter((p) => p !== placeId),
    );
    this.lists.delete(scopeKey({ ...u, placeId }));
    this.changed.fire(u);
  }

  async get(scope: RestrictionScope, userId: string, signal: AbortSignal): Promise<UserRestriction> {
    return (await this.client(scope)).restrictions.get({ ...where(scope), userId }, { signal });
  }

  /**
   * One PATCH of a user's restriction at the scope's level. The client sends an idempotency key and reuses it on
   * every retry of this call, so a retry after a lost answer never applies (or logs) the change twice.
   */
  async update(
    scope: RestrictionScope,
    userId: string,
    gameJoinRestriction: GameJoinRestrictionInput,
    signal: AbortSignal,
  ): Promise<UserRestriction> {
    assertWritable(scope);
    const client = await this.client(scope);
    const result = await client.restrictions.update(
      { ...where(scope), userId, gameJoinRestriction, updateMask: 'gameJoinRestriction' },
      { signal },
    );
    const universe = { connectionId: scope.connectionId, universeId: scope.universeId };
    this.forget(universe);
    this.forget(scope);
    this.changed.fire(universe);
    return result;
  }

  /** The plan of a ban or unban of many users (reads only). */
  async planBans(connectionId: string, args: PlanBansArgs): Promise<BanPlan> {
    return planBans(await this.connections.client(connectionId), args);
  }

  async planUnbanEverywhere(connectionId: string, args: UnbanEverywhereArgs) {
    return planUnbanEverywhere(await this.connections.client(connectionId), args);
  }

  /** Runs a ban plan (each universe it writes to must be writable); what was loaded of them is read again after. */
  async applyBans(connectionId: string, plan: BanPlan, opts: ApplyBansOptions): Promise<ApplyBansResult> {
    const universes = [...new Set(plan.targets.map((t) => t.universeId))].map((universeId) => ({
      connectionId,
      universeId,
    }));
    for (const u of universes) assertWritable(u);
    const client = await this.connections.client(connectionId);
    try {
      return await applyBans(client, plan, opts);
    } finally {
      for (const u of universes) {
        this.forget(u);
        this.changed.fire(u);
      }
    }
  }

  async listLogs(
    u: UniverseAddress,
    filter: LogFilter,
    pageToken: string | undefined,
    signal: AbortSignal,
  ): Promise<Page<RestrictionLog>> {
    return (await this.client(u)).restrictions.listLogs(
      {
        universeId: u.universeId,
        user: filter.user || undefined,
        place: filter.place || undefined,
        maxPageSize: Math.min(settings().pageSize, 100),
        pageToken,
      },
      { signal },
    );
  }

  dispose(): void {
    for (const pager of this.lists.values()) pager.reset();
    this.changed.dispose();
  }

  private client(u: UniverseAddress): Promise<OpenApiClient> {
    return this.connections.client(u.connectionId);
  }
}
