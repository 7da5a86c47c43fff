/**
 * What Ctrl+Z can take back: each entry knows how to reverse one change through the API.
 * Entries are pushed only after the server accepted the change, so undoing never reverses
 * something that did not happen.
 */
import { create } from 'zustand';

export interface UndoEntry {
  /** What was done, for the "Undone: …" message. */
  label: string;
  undo: () => Promise<void>;
}

interface UndoState {
  stack: UndoEntry[];
  busy: boolean;
  push(e: UndoEntry): void;
  /** Reverses the latest change; resolves to its label, or null when there was nothing to undo. */
  undo(): Promise<string | null>;
  clear(): void;
}

const LIMIT = 50;

export const useUndo = create<UndoState>()((set, get) => ({
  stack: [],
  busy: false,
  push(e) {
    set({ stack: [...get().stack, e].slice(-LIMIT) });
  },
  async undo() {
    const { stack, busy } = get();
    const top = stack[stack.length - 1];
    if (!top || busy) return null;
    set({ stack: stack.slice(0, -1), busy: true });
    try {
      await top.undo();
      return top.label;
    } catch (e) {
      // The reversal failed: keep it so the user can try again.
      set({ stack: [...get().stack, top] });
      throw e;
    } finally {
      set({ busy: false });
    }
  },
  clear() {
    set({ stack: [] });
  },
}));
