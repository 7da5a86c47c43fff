/**
 * The field groups an occurrence of a series can change on its own. An occurrence's `own_fields`
 * holds their bits; a whole-series change leaves the groups an occurrence owns as they are.
 */
export const OWN = {
  when: 1,
  title: 2,
  description: 4,
  excerpt: 8,
  status: 16,
  website: 32,
  cost: 64,
  flags: 128,
  venue: 256,
  organizers: 512,
  categories: 1024,
  tags: 2048,
  image: 4096,
  author: 8192,
  reminders: 16384,
} as const;
export type OwnGroup = keyof typeof OWN;
/** Every group: an occurrence that is its own in everything (one the rule does not make). */
export const ALL_GROUPS = Object.values(OWN).reduce((a, b) => a | b, 0);

/** The API body field → its group. Fields not here (slug, publication date) are per row. */
export const GROUP_OF_FIELD: Record<string, OwnGroup> = {
  start_date: 'when',
  end_date: 'when',
  timezone: 'when',
  all_day: 'when',
  title: 'title',
  description: 'description',
  excerpt: 'excerpt',
  status: 'status',
  website: 'website',
  cost: 'cost',
  show_map: 'flags',
  show_map_link: 'flags',
  hide_from_listings: 'flags',
  sticky: 'flags',
  featured: 'flags',
  venue: 'venue',
  organizer: 'organizers',
  categories: 'categories',
  tags: 'tags',
  image: 'image',
  author: 'author',
  reminders: 'reminders',
};

/** The `events` columns each group is stored in (groups kept in link tables have none). */
export const GROUP_COLUMNS: Partial<Record<OwnGroup, readonly string[]>> = {
  title: ['title'],
  description: ['content'],
  excerpt: ['excerpt'],
  status: ['status'],
  website: ['website'],
  cost: ['cost', 'currency_symbol', 'currency_code', 'currency_position'],
  flags: ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'],
  venue: ['venue_id'],
  image: ['image_id'],
  author: ['author'],
};

/** Columns an occurrence row copies from its series when it is generated. */
export const COPIED_COLUMNS = [
  'lang',
  'author',
  'title',
  'content',
  'excerpt',
  'date_local',
  'date_utc',
  'modified_local',
  'modified_utc',
  'image_id',
  'timezone',
  'all_day',
  'cost',
  'currency_symbol',
  'currency_code',
  'currency_position',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'venue_id',
  'calendar_id',
] as const;

/** The groups of the fields an API body sets. */
export function groupsOf(values: Record<string, unknown>): number {
  let bits = 0;
  for (const name of Object.keys(values)) {
    const g = GROUP_OF_FIELD[name];
    if (g && values[name] !== undefined) bits |= OWN[g];
  }
  return bits;
}

/**
 * The status of a series' first event once its own date is deleted for good: the row stays (it
 * is the series' id and its occurrences' post_parent) but no list, read or count shows it.
 */
export const HIDDEN_STATUS = 'inherit';
export const isHidden = (status: string): boolean => status === HIDDEN_STATUS;
