/** Short messages at the edge of the window; errors stay longer and can carry an action (Undo). */
import { create } from 'zustand';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  message: string;
  action?: { label: string; run: () => void };
}

interface ToastState {
  toasts: Toast[];
  show(t: Omit<Toast, 'id'>, ttlMs?: number): number;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],
  show(t, ttlMs) {
    const id = nextId++;
    // Keep the stack short: a burst of failures should not bury the window.
    set({ toasts: [...get().toasts.slice(-3), { ...t, id }] });
    const ttl = ttlMs ?? (t.kind === 'error' ? 10_000 : t.action ? 8_000 : 4_000);
    if (ttl > 0) setTimeout(() => get().dismiss(id), ttl);
    return id;
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
}));

export const toastError = (message: string) => useToasts.getState().show({ kind: 'error', message });
export const toastInfo = (message: string, action?: Toast['action']) => useToasts.getState().show({ kind: 'info', message, action });
