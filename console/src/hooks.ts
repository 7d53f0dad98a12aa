import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorText, isUnauthorized, isUpgradeRequired } from './api.js';
import { useSession } from './session.js';

export interface Resource<T> {
  data: T | undefined;
  loading: boolean;
  error: string | null;
  /** True when the answer was a 402 plan gate: the page shows the upgrade message instead of data. */
  upgrade: boolean;
  reload(): Promise<void>;
  /** Replaces the data in place after an action, so the page updates without asking the server again. */
  mutate(update: (current: T | undefined) => T | undefined): void;
}

/**
 * Loads data for a page and keeps loading, error and data together. A 401 ends the session (the token
 * expired or the member was removed); answers that arrive after the inputs changed are dropped.
 */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const { signOut } = useSession();
  const [state, setState] = useState<{ data?: T; loading: boolean; error: string | null; upgrade: boolean }>({
    loading: true,
    error: null,
    upgrade: false,
  });
  const generation = useRef(0);

  // The caller names what the loader depends on (`deps`), as with useEffect.
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true, error: null, upgrade: false }));
    try {
      const data = await load();
      if (mine === generation.current) setState({ data, loading: false, error: null, upgrade: false });
    } catch (err) {
      if (mine !== generation.current) return;
      if (isUnauthorized(err)) return signOut('Your session has ended; sign in again.');
      setState({ data: undefined, loading: false, error: errorText(err), upgrade: isUpgradeRequired(err) });
    }
  }, deps);

  useEffect(() => {
    void reload();
    return () => {
      generation.current++;
    };
  }, [reload]);

  const mutate = useCallback((update: (current: T | undefined) => T | undefined) => {
    setState((s) => ({ ...s, data: update(s.data) }));
  }, []);

  return { ...state, data: state.data, reload, mutate };
}

/** What `run` answers when the action failed (the error is then in `error`). */
export const FAILED = Symbol('failed');

/** Runs one user action (a button press) with its own busy flag and error text. */
export function useAction() {
  const { signOut } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; upgrade: boolean } | null>(null);
  const run = useCallback(
    async <T>(action: () => Promise<T>): Promise<T | typeof FAILED> => {
      setBusy(true);
      setError(null);
      try {
        return await action();
      } catch (err) {
        if (isUnauthorized(err)) {
          signOut('Your session has ended; sign in again.');
          return FAILED;
        }
        setError({ text: errorText(err), upgrade: isUpgradeRequired(err) });
        return FAILED;
      } finally {
        setBusy(false);
      }
    },
    [signOut],
  );
  return { busy, error, run, clearError: () => setError(null) };
}

/**
 * A destructive action on one row of a list (revoke a key, remove a member, release a device), done after
 * a confirmation dialog: `ask(row)` opens it, `confirm()` runs `perform` through `action` (its busy state and
 * error show as usual) and then `after` updates the list; `pending` is the row the dialog is about.
 */
export function useConfirmed<T>(
  action: ReturnType<typeof useAction>,
  perform: (row: T) => Promise<unknown>,
  after: (row: T) => void | Promise<void>,
) {
  const [pending, setPending] = useState<T | null>(null);
  const confirm = async () => {
    const row = pending;
    if (row === null) return;
    const result = await action.run(() => perform(row));
    setPending(null);
    if (result !== FAILED) await after(row);
  };
  return { pending, ask: (row: T) => setPending(row), cancel: () => setPending(null), confirm };
}

/**
 * A confirmed removal from a listed resource: once `perform` succeeds the row leaves the list `field` of the
 * resource (matched by `keyOf`), so the table updates without asking the server again.
 */
export function useConfirmedRemoval<T, F extends string>(
  action: ReturnType<typeof useAction>,
  perform: (row: T) => Promise<unknown>,
  resource: Resource<{ [K in F]: T[] }>,
  field: F,
  keyOf: (row: T) => string,
) {
  return useConfirmed(action, perform, (row: T) =>
    resource.mutate((current) => dropRow(current, field, keyOf(row), keyOf)),
  );
}

/** `data` with the row keyed `key` taken out of its list `field`. */
export function dropRow<T, F extends string, D extends { [K in F]: T[] }>(
  data: D | undefined,
  field: F,
  key: string,
  keyOf: (row: T) => string,
): D | undefined {
  return data && { ...data, [field]: data[field].filter((row) => keyOf(row) !== key) };
}
