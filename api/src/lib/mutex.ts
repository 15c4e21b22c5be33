/** A FIFO lock: `await lock()` resolves with the function that releases it. */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #waiting = 0;

  /** Callers waiting for the lock (not counting the holder): the metrics' SQLite queue. */
  get waiting(): number {
    return this.#waiting;
  }

  lock(): Promise<() => void> {
    let release!: () => void;
    this.#waiting += 1;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const acquired = this.#tail.then(() => {
      this.#waiting -= 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    });
    this.#tail = this.#tail.then(() => next);
    return acquired;
  }
}
