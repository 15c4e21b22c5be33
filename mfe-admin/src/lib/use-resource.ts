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
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    loadRef.current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setDataState(value);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const setData = useCallback((update: T | ((current: T | undefined) => T)) => {
    setDataState((current) => (typeof update === 'function' ? (update as (c: T | undefined) => T)(current) : update));
  }, []);
  return { data, error, loading, reload, setData };
}
