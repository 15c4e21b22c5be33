import { useCallback, useEffect, useRef, useState } from 'react';

export type Resource<T> = {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again (keeps the current data on screen meanwhile). */
  reload: () => void;
  /** Replaces the data with what a mutation answered, without a request. */
  setData: (update: T | ((current: T | undefined) => T)) => void;
};

/**
 * Loads data for a screen and reloads when `key` changes; aborts stale requests so a slow old answer never
 * replaces a newer one. Small on purpose: the admin screens are few and read-mostly.
 */
export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Resource<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  /** The request (key and attempt) whose answer is on screen: loading until it is the current one. */
  const [settled, setSettled] = useState<string | null>(null);
  const request = `${key}#${attempt}`;
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });

  useEffect(() => {
    const controller = new AbortController();
    loadRef.current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setDataState(value);
        setError(null);
        setSettled(request);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err);
        setSettled(request);
      },
    );
    return () => controller.abort();
  }, [request]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const setData = useCallback((update: T | ((current: T | undefined) => T)) => {
    setDataState((current) => (typeof update === 'function' ? (update as (c: T | undefined) => T)(current) : update));
  }, []);
  return { data, error, loading: settled !== request, reload, setData };
}
