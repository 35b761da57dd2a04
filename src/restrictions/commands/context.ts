import type { CommandBase, CommandDef } from '../../core/commands';
import type { Review, ReviewHandler, ReviewPanel } from '../../core/review/panel';
import type { Connections } from '../../core/connections';
import type { LogPanels } from '../log/panel';
import type { RestrictionScope, RestrictionsModel } from '../model';
import type { BanRuns } from '../runs/store';
import type { PlaceRestrictionsNode } from '../tree';

export interface RestrictionsContext extends CommandBase {
  model: RestrictionsModel;
  connections: Connections;
  logs: LogPanels;
  runs: BanRuns;
  /** Opens a review panel (a ban run's plan or result). */
  openReview(review: Review, handler: ReviewHandler): ReviewPanel;
  /** Selects the place's node under its universe in the Universes view. */
  revealPlace(scope: RestrictionScope & { placeId: number }): Promise<PlaceRestrictionsNode>;
}

export type RestrictionsCommand = CommandDef<RestrictionsContext>;
