// The plan folder: each plan is `<plans>/<planId>/`, with `plan.json` (what the plan is: its kind, universe, what
// was asked, the files it runs) and its parts: restore plans (api/timeMachine/restoreFormat.ts, run by runRestore,
// audited, undoable) for entry writes, the ban itself in plan.json, or a ban plan file (api/bans/planFile.ts) for
// bans of many users. apply_plan reads only what is in that folder.
import { randomBytes } from 'node:crypto';
import fsp = require('node:fs/promises');
import path = require('node:path');
import { readPlanHeader, type GameJoinRestrictionInput, type GameJoinRestriction } from '../api';
import { ToolError } from './types';

/** A ban or unban planned: the restriction read when planning (the condition), and the one to write. */
export interface BanPlan {
  place?: string;
  user: string;
  /** What the restriction was when planned: apply skips the user when it changed since. */
  read: Pick<
    GameJoinRestriction,
    'active' | 'startTime' | 'duration' | 'privateReason' | 'displayReason' | 'excludeAltAccounts'
  >;
  write: GameJoinRestrictionInput;
}

export type PlanKind =
  | 'set_entry'
  | 'delete_entry'
  | 'restore_to_time'
  | 'copy_differences'
  | 'erase_player'
  | 'ban'
  | 'ban_many'
  | 'unban_everywhere';

export interface PlanManifest {
  planId: string;
  kind: PlanKind;
  /** The universe the plan writes to (the target of a copy). */
  universe: string;
  planned: string;
  /** What the plan does, in a line. */
  summary: string;
  /** Restore plans: their files, relative to the plan folder, run in order. */
  parts?: string[];
  ban?: BanPlan;
  /** Bans of many users: their ban plan file (api/bans/planFile.ts), relative to the plan folder. */
  bansFile?: string;
}

export interface PlanFolder {
  planId: string;
  dir: string;
  /** `<dir>/plan.json`. */
  file: string;
}

const PLAN_ID = /^[a-z_]+-\d{8}T\d{6}Z-[0-9a-f]{6}$/;

/** `set_entry-20261126T180105Z-3f9a1c`: the kind, when, and six random hex digits. */
export function newId(kind: string): string {
  const when = new Date().toISOString().replace(/[-:]|\.\d+/g, '');
  return `${kind}-${when}-${randomBytes(3).toString('hex')}`;
}

/** A new, empty plan folder. */
export async function newPlan(plansDir: string, kind: PlanKind): Promise<PlanFolder> {
  const planId = newId(kind);
  const dir = path.join(plansDir, planId);
  await fsp.mkdir(dir, { recursive: true });
  return { planId, dir, file: path.join(dir, 'plan.json') };
}

export async function writeManifest(folder: PlanFolder, manifest: PlanManifest): Promise<void> {
  await fsp.writeFile(folder.file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The plan named `planId`: its folder and manifest, each restore part's header checked to name its universe. */
export async function readPlan(plansDir: string, planId: string): Promise<PlanFolder & { manifest: PlanManifest }> {
  if (!PLAN_ID.test(planId)) {
    throw new ToolError(`${JSON.stringify(planId)} is not a plan id: give the planId a plan tool returned`);
  }
  const dir = path.join(plansDir, planId);
  const file = path.join(dir, 'plan.json');
  let manifest: PlanManifest;
  try {
    manifest = JSON.parse(await fsp.readFile(file, 'utf8')) as PlanManifest;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ToolError(
      code === 'ENOENT'
        ? `there is no plan ${planId} in ${plansDir}: make one with a plan tool (its planId)`
        : `the plan ${planId} cannot be read (${code ?? (error as Error).message}): make it again`,
    );
  }
  if (manifest.planId !== planId || !/^\d{1,19}$/.test(String(manifest.universe))) {
    throw new ToolError(`${file} is not the plan ${planId}: make the plan again`);
  }
  for (const part of manifest.parts ?? []) {
    const header = await readPlanHeader(path.join(dir, path.basename(part))).catch((error: Error) => {
      throw new ToolError(`the plan ${planId} is damaged (${error.message}): make it again`);
    });
    if (String(header.universeId) !== manifest.universe) {
      throw new ToolError(`the plan ${planId} writes to another universe than it says: make it again`);
    }
  }
  return { planId, dir, file, manifest };
}
