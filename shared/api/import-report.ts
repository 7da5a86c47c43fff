/** What `POST /import` answers: the report of an iCalendar or CSV import, or of a restore. */

export interface ImportProblem {
  line?: number;
  row?: number;
  message: string;
}

export interface ImportReport {
  dry_run: boolean;
  created: number;
  updated: number;
  /** Venues and organizers found already in the calendar and used as they were. */
  reused: number;
  skipped: number;
  items: Array<{ line?: number; row?: number; action: 'create' | 'update' | 'reuse' | 'skip'; id?: number; title: string }>;
  errors: ImportProblem[];
  warnings: ImportProblem[];
}

/** The answer to a JSON backup import (a restore). */
export interface RestoreReport {
  dry_run: boolean;
  restored: Record<string, number>;
  /** The copy of the calendar as it was before the restore. */
  previous_copy?: string;
}
