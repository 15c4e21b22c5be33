/** A promise and the function that settles it, for a test to release something (a held route) once it has seen what it waits for. */
export type Deferred<T = void> = { promise: Promise<T>; resolve: (value: T) => void };

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
