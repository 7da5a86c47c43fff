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
}

export interface ImportedEvent {
  /**
   * What a re-import matches on: the VEVENT's UID, or for an occurrence of a recurring series
   * `<UID>#<occurrence key>` where the key is the RECURRENCE-ID value (`20240105T090000`,
   * `20240105` for dates, a trailing `Z` for UTC series).
   */
  uid: string;
  /** For the second and later occurrences of a series: the `uid` of its first imported occurrence. */
  recurrenceOf?: string;
  /** Line of the VEVENT's BEGIN in the file (of the override, for a replaced occurrence). */
  line: number;
  body: EventBody;
}

export interface IcsImportResult {
  events: ImportedEvent[];
  errors: ImportProblem[];
  warnings: ImportProblem[];
}

export interface IcsImportOptions {
  /** Zone for floating times and dates, and for UTC times when the calendar names no zone. */
  siteZone: string;
  /** Occurrences of recurring events starting in [start, end) are imported. */
  window?: { start: Date; end: Date };
  /** "Today" for the default window (series start … two years from now). */
  now?: Date;
  /** Most occurrences imported per series (default 1000). */
  maxOccurrences?: number;
  /** Called about every 1% of the VEVENTs scanned, and at the end with the exact count (`openIcs`). */
  onProgress?: (done: number, total: number) => void;
}
