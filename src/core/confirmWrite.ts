// Writes to a production universe ask first: a single write with a modal question naming the universe and its role,
// a bulk run with the universe's name typed in full. Nothing is asked for development and staging universes.
import { askTyped } from './prompts';
import { t } from './text';
import { UserCancelled, type Ui } from './ui';
import { describeUniverse, roleOf, universeFacts, type UniverseAddress } from './universe';

/**
 * The words of a write's modal question: for a production universe, the question starts "Production:" and the
 * detail names the universe. A command that asks anyway (Delete, Unban) asks once, in these words.
 */
export function askingWords(
  u: UniverseAddress,
  question: string,
  detail?: string,
): { question: string; detail?: string } {
  if (roleOf(u) !== 'production') return { question, detail };
  const where = t`${describeUniverse(u)} is a production universe.`;
  return { question: t`Production: ${question}`, detail: [where, detail].filter(Boolean).join(' ') };
}

/**
 * For a production universe, asks `question` in a modal (`button` goes ahead) and throws UserCancelled unless the
 * user chose it. Returns at once for any other universe.
 */
export async function confirmProductionWrite(
  ui: Ui,
  u: UniverseAddress,
  question: string,
  button: string,
  detail?: string,
): Promise<void> {
  if (roleOf(u) !== 'production') return;
  const words = askingWords(u, question, detail);
  const answer = await ui.warn(words.question, { modal: true, detail: words.detail }, button);
  if (answer !== button) throw new UserCancelled();
}

/** What a person types to apply a bulk run to a production universe: its name, or its id when it has none. */
export function typedName(u: UniverseAddress): string {
  return universeFacts(u)?.name?.trim() || String(u.universeId);
}

/**
 * For a production universe, asks for its name typed before a bulk run (`what`: "restore Players to 10:32") and
 * returns false unless it was typed. True at once for any other universe.
 */
export async function confirmProductionBulk(ui: Ui, u: UniverseAddress, what: string): Promise<boolean> {
  if (roleOf(u) !== 'production') return true;
  const name = typedName(u);
  return askTyped(ui, {
    title: t`Apply to production: ${what}`,
    prompt: t`${describeUniverse(u)} is a production universe. Type its name, ${name}, to apply.`,
    expected: name,
  });
}
