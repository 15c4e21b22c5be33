import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';

const inFlight = new Map<string, Promise<Stats | undefined>>();

/**
 * `fs.stat` of a file, undefined when it is not there (or cannot be read). Requests that ask while a stat of the same
 * file is running share it: under load, every page request checks the same few files (the shell's index.html, each
 * remote's pointer), and one answer for all of them at a moment is as current as fifty, at a fiftieth of the work.
 * Never remembered beyond that moment: a change is seen by the next stat that starts after it.
 */
export function statShared(file: string): Promise<Stats | undefined> {
  let pending = inFlight.get(file);
  if (!pending) {
    pending = stat(file).then(
      (info) => info,
      () => undefined,
    );
    inFlight.set(file, pending);
    void pending.then(() => inFlight.delete(file));
  }
  return pending;
}
