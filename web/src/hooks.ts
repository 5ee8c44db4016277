import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Resource<T> {
  data: T | undefined;
  error: string | undefined;
  reload: () => void;
}

/**
 * Data loaded from the API when the component mounts (and when `key`
 * changes), again on reload(), and every `pollMs` when given: how the
 * Models page follows a version from Initializing to Active.
 */
export function useResource<T>(load: () => Promise<T>, key: string, pollMs?: number): Resource<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const loadRef = useRef(load);
  loadRef.current = load;
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      loadRef
        .current()
        .then(
          (value) => {
            if (!live) return;
            setData(value);
            setError(undefined);
          },
          (failure: Error) => live && setError(failure.message),
        )
        .finally(() => {
          if (live && pollMs) timer = setTimeout(run, pollMs);
        });
    };
    run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, generation, pollMs]);
  return { data, error, reload };
}

/** Runs an action from a button or form, holding its error to show and whether it is running. */
export function useAction() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }, []);
  return { error, busy, run };
}
