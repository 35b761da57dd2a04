// Erase Player Data, the receipt: what an erase plan's runs did, read back from its files (the plan's header and
// actions, the audit, the skipped and failures files, and the audits of what put keys back), as one JSON-serialisable
// object to keep or hand over. It names keys, versions and times only: never a value, its attributes or other users'
// ids (a receipt of erased data must not hold the data). `remains` says what the service and this machine still keep.
import { KEEP_DAYS } from './moment';
import {
  auditFileFor,
  objectLines,
  planActions,
  putBackPlanFileFor,
  readAudit,
  readPlanHeader,
  restoreFailuresFileFor,
  skippedFileFor,
  undoPlanFileFor,
  type RestoreActionKind,
  type SkipReason,
} from './restoreFormat';
import type { EraseStore } from './erase';

/** What an erase plan does to a key: delete it, or take the player's id out of its user ids. */
export type EraseStep = 'delete' | 'removeId';

/** A key the erase planned something for. */
export interface ErasePlanned {
  scope: string;
  key: string;
  step: EraseStep;
  /** The version the step is conditioned on: the one read when planned. */
  conditionedOn: string;
}

/** A key erased: deleted, or its user ids written without the player's id. */
export interface ErasedKey extends ErasePlanned {
  /** The version the run made: the deletion, or the entry without the id. */
  written: string;
  /** When the run recorded it (this machine's clock); absent in audits written before it was kept. */
  at?: string;
  /** Found done when the run came to it (a stopped run whose write had gone through). */
  earlier?: true;
  /** A delete whose check passed, but which removed `removed`, written by another writer in between. */
  raced?: true;
  removed?: string;
}

/** A key the run left alone: changed since planned (its new version was not erased), or already deleted. */
export interface NotErasedKey extends ErasePlanned {
  reason: SkipReason;
  /** The version found, when known. */
  current?: string;
  at?: string;
}

export interface EraseFailedKey extends ErasePlanned {
  error: string;
  at?: string;
}

/** A key erased and then put back (by Undo, or Put Back of a raced delete). */
export interface PutBackKey extends ErasedKey {
  putBack: { version: string; at?: string };
}

/** What the erase does not reach, and until when the service keeps it, when that is known. */
export interface EraseRemains {
  what: string;
  until?: string;
}

export interface EraseReceipt {
  receipt: 'erasePlayerData';
  /** When this receipt was made. */
  made: string;
  userId: number;
  universeId: number | string;
  datastoreName: string;
  /** Every store the erase searched. */
  stores: EraseStore[];
  plan: string;
  planned: string;
  erased: ErasedKey[];
  notErased: NotErasedKey[];
  failed: EraseFailedKey[];
  /** Planned and not run (yet): a stopped run, or a plan never applied. */
  notRun: ErasePlanned[];
  putBack: PutBackKey[];
  counts: { deleted: number; idRemoved: number; notErased: number; failed: number; notRun: number; putBack: number };
  remains: EraseRemains[];
}

export interface EraseReceiptOptions {
  signal?: AbortSignal;
  /**
   * Audit files of runs that put keys of this erase back (its Undo, the Put Back of its raced deletes). Default: the
   * audits of the undo and put-back plans next to the plan, when they exist.
   */
  putBackAudits?: string[];
  /** The receipt's time (default: now). */
  now?: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const STEP: Record<RestoreActionKind, EraseStep> = { delete: 'delete', write: 'removeId', recreate: 'removeId' };
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const keyOf = (l: { scope: string; key: string }): string => `${l.scope}\n${l.key}`;
/** The object without its undefined fields, so the receipt reads the same before and after JSON. */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * The receipt of an erase plan (planErase) from its files: each planned key as erased (when, the version
 * conditioned on and the one written), not erased (why), failed, not run, or put back since; and what remains.
 * Throws when `planFile` is no erase plan.
 */
export async function eraseReceipt(planFile: string, opts: EraseReceiptOptions = {}): Promise<EraseReceipt> {
  const { signal } = opts;
  const header = await readPlanHeader(planFile);
  if (!header.erase) throw new Error(`${planFile} is not a plan of Erase Player Data: its header has no "erase"`);
  const auditFile = auditFileFor(planFile);

  const audit = new Map<number, Omit<ErasedKey, keyof ErasePlanned>>();
  for await (const l of readAudit(auditFile, signal)) {
    const removed = l.raced ? l.before : undefined;
    audit.set(l.n, defined({ written: l.written, at: l.at, earlier: l.found, raced: l.raced, removed }));
  }
  const skipped = new Map<number, Omit<NotErasedKey, keyof ErasePlanned>>();
  for await (const s of objectLines(skippedFileFor(planFile))) {
    skipped.set(Number(s.n), defined({ reason: s.reason as SkipReason, current: str(s.current), at: str(s.at) }));
  }
  const failures = new Map<number, Omit<EraseFailedKey, keyof ErasePlanned>>();
  for await (const f of objectLines(restoreFailuresFileFor(planFile))) {
    failures.set(Number(f.n), defined({ error: String(f.error), at: str(f.at) }));
  }
  const back = new Map<string, PutBackKey['putBack']>();
  const putBackAudits = opts.putBackAudits ?? [
    auditFileFor(undoPlanFileFor(auditFile)),
    auditFileFor(putBackPlanFileFor(auditFile)),
  ];
  for (const file of putBackAudits) {
    for await (const l of readAudit(file, signal)) {
      if (l.action !== 'delete') back.set(keyOf(l), defined({ version: l.written, at: l.at }));
    }
  }

  const receipt: EraseReceipt = {
    receipt: 'erasePlayerData',
    made: (opts.now ?? new Date()).toISOString(),
    userId: header.erase.userId,
    universeId: header.universeId,
    datastoreName: header.datastoreName,
    stores: header.erase.stores,
    plan: planFile,
    planned: header.planned,
    erased: [],
    notErased: [],
    failed: [],
    notRun: [],
    putBack: [],
    counts: { deleted: 0, idRemoved: 0, notErased: 0, failed: 0, notRun: 0, putBack: 0 },
    remains: [],
  };
  let last: number | undefined;
  for await (const actions of planActions(planFile, signal)) {
    for (const a of actions) {
      const planned: ErasePlanned = { scope: a.scope, key: a.key, step: STEP[a.action], conditionedOn: a.now };
      const done = audit.get(a.n);
      const skip = skipped.get(a.n);
      const failure = failures.get(a.n);
      if (done) {
        const erased: ErasedKey = { ...planned, ...done };
        const at = done.at === undefined ? NaN : Date.parse(done.at);
        if (!Number.isNaN(at)) last = Math.max(last ?? at, at);
        const putBack = back.get(keyOf(a));
        if (putBack) receipt.putBack.push({ ...erased, putBack });
        else {
          receipt.erased.push(erased);
          receipt.counts[a.action === 'delete' ? 'deleted' : 'idRemoved']++;
        }
      } else if (skip) receipt.notErased.push({ ...planned, ...skip });
      else if (failure) receipt.failed.push({ ...planned, ...failure });
      else receipt.notRun.push(planned);
    }
  }
  const { counts } = receipt;
  counts.notErased = receipt.notErased.length;
  counts.failed = receipt.failed.length;
  counts.notRun = receipt.notRun.length;
  counts.putBack = receipt.putBack.length;
  receipt.remains = remainsOf(receipt, auditFile, last);
  return receipt;
}

/** What the erase does not reach: a fixed list, with the service's end dates from the last erase recorded. */
function remainsOf(r: EraseReceipt, auditFile: string, last: number | undefined): EraseRemains[] {
  const until = last === undefined ? undefined : new Date(last + KEEP_DAYS * DAY_MS).toISOString();
  const stores = r.stores.map((s) => `${s.datastoreName} (universe ${s.universeId})`).join(', ');
  return [
    defined({
      what:
        `Earlier versions of each entry erased: the service keeps a superseded version for ${KEEP_DAYS} days after ` +
        'it was superseded (only the last write of each UTC hour is kept as a version), and this product cannot ' +
        'delete one; they expire on their own. An entry whose id was removed keeps it in those versions.',
      until,
    }),
    defined({
      what:
        `The names of the deleted keys: a deleted key stays listed, with no value, as a deletion until the service ` +
        `purges it ${KEEP_DAYS} days later.`,
      until,
    }),
    {
      what:
        `Only the candidate keys of the stores searched (${stores}) were looked at: other keys, other data stores, ` +
        'ordered and memory stores, other services (restrictions, assets), and the id inside a value of an entry ' +
        'not tied to the player were not searched.',
    },
    {
      what:
        'Entries listed as not erased, failed, not run or put back still hold what they held; a key changed since ' +
        'the plan was not erased, so plan the erase again for it.',
    },
    {
      what:
        `This operation's plan (${r.plan}) and audit (${auditFile}) keep each erased value, its attributes and ` +
        'user ids, so that Undo can put them back: they last as long as those files are kept. Delete them when ' +
        'Undo is no longer wanted.',
    },
  ];
}
