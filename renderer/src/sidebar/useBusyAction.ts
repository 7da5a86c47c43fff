import { useState } from 'react';
import { reloadEvents } from '../state/events';
import { toastError } from '../state/toasts';

/**
 * A sidebar button that asks the server for something (Sync now, a held deletion's answer, a refused
 * record's Try again): `busy` while it runs, so its buttons are held; then the events it may have
 * brought are drawn, and a refusal is told in a toast.
 */
export function useBusyAction(): [busy: boolean, run: (action: () => Promise<void>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
      await reloadEvents();
    } catch (err) {
      toastError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return [busy, run];
}
