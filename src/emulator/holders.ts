// `--exit-unheld`: the emulator runs for as long as someone holds it. A holder is a file `<data>/holders/<pid>` whose
// process is alive (a VS Code window writes its own and removes it when it lets go); files of dead processes are
// removed. The emulator stops once it has not been held for UNHELD_MS, or, when no holder has appeared yet, once the
// GRACE_MS after its start have passed. Real time, not the emulator's clock: this is about processes.
import fs = require('node:fs');
import path = require('node:path');
import { alive } from './lock';

const GRACE_MS = 30_000;
const UNHELD_MS = 5_000;
const CHECK_MS = 500;

/** Calls `onUnheld` once when the emulator is no longer held; returns a function that stops watching. */
export function watchHolders(dataDir: string, onUnheld: () => void, log: (line: string) => void): () => void {
  const dir = path.join(dataDir, 'holders');
  fs.mkdirSync(dir, { recursive: true });
  let deadline = Date.now() + GRACE_MS;
  const timer = setInterval(() => {
    if (held(dir, log)) deadline = Date.now() + UNHELD_MS;
    else if (Date.now() >= deadline) {
      clearInterval(timer);
      onUnheld();
    }
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function held(dir: string, log: (line: string) => void): boolean {
  let any = false;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return false; // the folder was removed: nobody holds it
  }
  for (const name of names) {
    if (!/^[1-9]\d{0,9}$/.test(name)) continue;
    if (alive(Number(name))) any = true;
    else {
      fs.rmSync(path.join(dir, name), { force: true });
      log(`holder ${name} is no longer running; its file was removed`);
    }
  }
  return any;
}
