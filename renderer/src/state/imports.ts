/**
 * The import the user started from the import dialog: sent as a background job, followed until it
 * ends, then the calendar reloaded. Kept here rather than in the dialog, so closing the dialog does
 * not lose track of an import that is still running.
 */
import { create } from 'zustand';
import type { ImportJob } from '@shared/api/import-report';
import type { ImportRequest } from '../api/client';
import { ApiError, isAbort } from '../api/client';
import { api } from './api';
import { reloadEvents } from './events';
import { useLookups } from './lookups';

/** How often a running job is asked for its progress. */
export const POLL_MS = 200;

export type ImportStatus = 'idle' | 'sending' | 'running' | 'done' | 'failed' | 'cancelled';

interface ImportState {
  status: ImportStatus;
  job: ImportJob | null;
  /** What the last import was asked to do (a dry run is followed by the real one with the same). */
  request: ImportRequest | null;
  /** The API's message when the file was refused, or the job failed. */
  error: string | null;
  start(file: Blob, request: ImportRequest): Promise<void>;
  cancel(): Promise<void>;
  /** Back to idle for the next file; a running import goes on unseen. */
  reset(): void;
}

let generation = 0;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

export const useImports = create<ImportState>()((set, get) => ({
  status: 'idle',
  job: null,
  request: null,
  error: null,

  async start(file, request) {
    const mine = ++generation;
    set({ status: 'sending', job: null, request, error: null });
    let job: ImportJob;
    try {
      job = await api().startImport(file, request);
    } catch (e) {
      if (mine === generation) set({ status: 'failed', error: (e as Error).message });
      return;
    }
    // Polled until it ends; a reset or a newer import stops this loop, not the job.
    while (mine === generation) {
      set({ job, status: job.state });
      if (job.state !== 'running') break;
      await sleep(POLL_MS);
      try {
        job = await api().importJob(job);
      } catch (e) {
        if (isAbort(e)) return;
        // A lost answer is not a failed import: ask again, unless the job itself is gone.
        if (e instanceof ApiError && e.status === 404) {
          if (mine === generation) set({ status: 'failed', error: e.message });
          return;
        }
      }
    }
    if (mine !== generation) return;
    if (job.state === 'failed') set({ error: job.error?.message ?? null });
    if (job.state === 'done' && !job.report?.dry_run) {
      void reloadEvents();
      void useLookups.getState().loadAll().catch(() => {});
    }
  },

  async cancel() {
    const job = get().job;
    if (!job || get().status !== 'running') return;
    try {
      await api().cancelImport(job);
    } catch {
      // It may have ended meanwhile: the polling loop tells how.
    }
  },

  reset() {
    generation++;
    set({ status: 'idle', job: null, request: null, error: null });
  },
}));
