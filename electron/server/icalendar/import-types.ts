import type { StoredReminder } from '../store/reminders';
import type { PreparedItem } from '../import-export/import-values';
/** What an iCalendar import makes of a file: event bodies for the API, and the problems found. */

export interface ImportProblem {
  line: number;
  message: string;
}

export interface VenueBody {
  venue: string;
  address?: string;
  city?: string;
  country?: string;
  state?: string;
  province?: string;
  zip?: string;
  phone?: string;
  website?: string;
  geo_lat?: number;
  geo_lng?: number;
}

export interface OrganizerBody {
  organizer: string;
  email?: string;
  phone?: string;
  website?: string;
}

/** An event body as `POST /events` takes it (reference §5.1). */
export interface EventBody {
  title: string;
  /** The VEVENT's VALARMs (icalendar/valarm.ts), with their other lines kept. */
  reminders?: StoredReminder[];
  description?: string;
  excerpt?: string;
  slug?: string;
  status?: string;
  /** Publication date in UTC, from CREATED. */
  date_utc?: string;
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
  image?: string;
  cost?: string | string[];
  website?: string;
  show_map?: boolean;
  show_map_link?: boolean;
  hide_from_listings?: boolean;
  sticky?: boolean;
  featured?: boolean;
  categories?: string[];
  tags?: string[];
  venue?: VenueBody;
  organizer?: OrganizerBody[];
  i18n_language?: string;
  /** A series' rule (the master VEVENT's RRULE, RDATE and EXDATE), as the API takes it. */
  recurrence?: { rules: string[]; rdates: string[]; exdates: string[] };
}

export interface ImportedEvent {
  /** What a re-import matches on: the VEVENT's UID (for an occurrence changed on its own, its series'). */
  uid: string;
  /**
   * For an occurrence changed on its own (a VEVENT with RECURRENCE-ID): its original start as a
   * wall time of its series (`Y-m-d H:i:s`); `uid` is then the series' UID.
   */
  recurrenceId?: string;
  /** Line of the VEVENT's BEGIN in the file (of the override, for a replaced occurrence). */
  line: number;
  body: EventBody;
}

/**
 * An event made on the reading thread of a large file (read-threaded.ts), which checks each body
 * as the writer would and sends the checked values instead (import-values.ts): a body that fails
 * the checks comes as it is, for the writer to refuse in its usual words.
 */
export type ReadEvent = ImportedEvent | PreparedEvent;

export interface PreparedEvent {
  uid: string;
  recurrenceId?: string;
  line: number;
  prepared: PreparedItem;
}

export interface IcsImportResult {
  events: ImportedEvent[];
  errors: ImportProblem[];
  warnings: ImportProblem[];
}

export interface IcsImportOptions {
  /** Zone for floating times and dates, and for UTC times when the calendar names no zone. */
  siteZone: string;
  /** Single occurrences whose series is not in the file are imported when they start in [start, end). */
  window?: { start: Date; end: Date };
  /** "Today": time zones are prepared up to two years after it. */
  now?: Date;
  /** Called about every 1% of the VEVENTs scanned, and at the end with the exact count (`openIcs`). */
  onProgress?: (done: number, total: number) => void;
}
