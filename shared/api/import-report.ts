/**
 * What `POST /import` answers (the report of an iCalendar or CSV import, or of a restore) and what
 * a background import job looks like while it runs. Declared once: the server's types, the UI's,
 * and the `/doc` component schemas all come from here.
 */
import { z } from 'zod';
import { ApiErrorBody } from './records';

export const ImportProblem = z
  .object({
    line: z.number().int().optional(),
    row: z.number().int().optional(),
    message: z.string(),
  })
  .meta({ id: 'ImportProblem', description: 'A problem with one item of the file, with its line (iCalendar) or row (CSV).' });
export type ImportProblem = z.infer<typeof ImportProblem>;

export const ImportReport = z
  .object({
    dry_run: z.boolean(),
    created: z.number().int(),
    updated: z.number().int(),
    /** Venues and organizers found already in the calendar and used as they were. */
    reused: z.number().int(),
    skipped: z.number().int(),
    items: z.array(
      z.object({
        line: z.number().int().optional(),
        row: z.number().int().optional(),
        action: z.enum(['create', 'update', 'reuse', 'skip']),
        id: z.number().int().optional(),
        title: z.string(),
      }),
    ),
    errors: z.array(ImportProblem),
    warnings: z.array(ImportProblem),
  })
  .meta({ id: 'ImportReport', description: 'What an iCalendar or CSV import did (or, in a dry run, would do), item by item.' });
export type ImportReport = z.infer<typeof ImportReport>;

/** The answer to a JSON backup import (a restore). */
export const RestoreReport = z
  .object({
    dry_run: z.boolean(),
    restored: z.record(z.string(), z.number().int()),
    /** The copy of the calendar as it was before the restore. */
    previous_copy: z.string().optional(),
  })
  .meta({ id: 'RestoreReport', description: 'What a JSON backup restore replaced: rows per table, and where the previous calendar was copied.' });
export type RestoreReport = z.infer<typeof RestoreReport>;

export const IMPORT_JOB_STATES = ['running', 'done', 'failed', 'cancelled'] as const;
export type ImportJobState = (typeof IMPORT_JOB_STATES)[number];

/**
 * An import running in the background (`POST /import?background=true`). `done` of
 * `total` counts items read from the file, then items written; a job that is no longer running
 * has its report, or the error the import would have answered.
 */
export const ImportJob = z
  .object({
    id: z.string(),
    state: z.enum(IMPORT_JOB_STATES),
    phase: z.enum(['reading', 'writing']),
    done: z.number().int(),
    total: z.number().int(),
    started: z.string(),
    finished: z.string().nullable(),
    rest_url: z.string(),
    report: z.union([ImportReport, RestoreReport]).nullable(),
    error: ApiErrorBody.nullable(),
  })
  .meta({ id: 'ImportJob', description: 'An import running in the background, its progress, and at the end its report or error.' });
export type ImportJob = z.infer<typeof ImportJob>;
