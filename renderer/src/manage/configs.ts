/** The four management screens differ only in their fields, list columns and delete semantics. */
import type { Organizer, Term, Venue } from '@shared/api/records';
import { categoryFields, organizerFields, tagFields, venueFields, type FieldSet } from '@shared/schema/resources';
import { decodeEntities } from '../calendar/toEventInput';

export type ManagedKind = 'venues' | 'organizers' | 'categories' | 'tags';
export type ManagedRecord = Venue | Organizer | Term;

export interface Column {
  /** i18n key of the header. */
  label: string;
  value(r: ManagedRecord, all: ManagedRecord[]): string;
  /** The value is a colour: drawn as a swatch beside it. */
  swatch?: boolean;
}

export interface ManageConfig {
  kind: ManagedKind;
  fields: FieldSet;
  /** The field holding the record's name. */
  nameField: string;
  columns: Column[];
  /** Venues and organizers go to the trash; terms are deleted for good. */
  trashable: boolean;
  /** Fields kept under "Advanced" in the form. */
  advanced: string[];
  /** Fields shown first, in this order (the rest follow in the declarations' order). */
  order?: string[];
}

const str = (v: unknown) => (v === undefined || v === null ? '' : decodeEntities(String(v)));
const get = (k: string) => (r: ManagedRecord) => str((r as unknown as Record<string, unknown>)[k]);
const POST_ADVANCED = ['slug', 'author', 'date', 'translation_of'];

export const CONFIGS: Record<ManagedKind, ManageConfig> = {
  venues: {
    kind: 'venues',
    fields: venueFields,
    nameField: 'venue',
    trashable: true,
    // The address as people write it, with one "state or province" box; the original's separate
    // US-state and province fields stay reachable under Advanced for data that uses them.
    advanced: [...POST_ADVANCED, 'state', 'province'],
    order: ['venue', 'address', 'city', 'stateprovince', 'zip', 'country', 'phone', 'website', 'geo_lat', 'geo_lng'],
    columns: [
      {
        label: 'field.address',
        value: (r) => {
          const v = r as Venue;
          return [v.address, v.city, v.stateprovince || v.state || v.province, v.zip, v.country].filter(Boolean).map(str).join(', ');
        },
      },
      { label: 'field.phone', value: get('phone') },
      {
        label: 'manage.coordinates',
        value: (r) => {
          const v = r as Venue;
          return v.geo_lat !== undefined && v.geo_lng !== undefined ? `${v.geo_lat.toFixed(5)}, ${v.geo_lng.toFixed(5)}` : '';
        },
      },
    ],
  },
  organizers: {
    kind: 'organizers',
    fields: organizerFields,
    nameField: 'organizer',
    trashable: true,
    advanced: POST_ADVANCED,
    columns: [
      { label: 'field.email', value: get('email') },
      { label: 'field.phone', value: get('phone') },
      { label: 'field.website', value: get('website') },
    ],
  },
  categories: {
    kind: 'categories',
    fields: categoryFields,
    nameField: 'name',
    trashable: false,
    advanced: ['slug', 'translation_of'],
    columns: [
      {
        label: 'field.parent',
        value: (r, all) => {
          const p = (r as Term).parent;
          const parent = p ? (all as Term[]).find((c) => c.id === p) : undefined;
          return parent ? str(parent.name) : '';
        },
      },
      { label: 'field.color', value: get('color'), swatch: true },
      { label: 'field.slug', value: get('slug') },
      { label: 'manage.count', value: get('series_count') },
    ],
  },
  tags: {
    kind: 'tags',
    fields: tagFields,
    nameField: 'name',
    trashable: false,
    advanced: ['slug', 'translation_of'],
    columns: [
      { label: 'field.slug', value: get('slug') },
      { label: 'manage.count', value: get('series_count') },
    ],
  },
};

export function nameOf(cfg: ManageConfig, r: ManagedRecord): string {
  return str((r as unknown as Record<string, unknown>)[cfg.nameField]) || `#${r.id}`;
}
