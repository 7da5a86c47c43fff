/**
 * What a record's JSON needs besides its own row: its image object and its translations. A page
 * of a list loads them for every record on it (events and their venues and organizers) in one
 * query per kind, instead of two queries per record; a single record goes through the same path.
 */
import type { Image } from '../../../shared/api/records';
import type { Store } from '../store';
import { translationsOf, type PostKind, type PostRow } from '../store/posts';

export interface Lookups {
  image(id: number | null): Image | false;
  /** The other languages of a record's translation group: `{ lang: id }`. */
  translations(kind: PostKind, row: PostRow): Record<string, number>;
}

export function loadLookups(store: Store, rows: Partial<Record<PostKind, PostRow[]>>): Lookups {
  const kinds = Object.keys(rows) as PostKind[];
  const images = store.images.toApi(kinds.flatMap((k) => rows[k]!.map((r) => r.image_id)));
  const groups = new Map(kinds.map((k) => [k, store.registry.groupMembers(k, rows[k]!.map((r) => r.translation_group))]));
  return {
    image: (id) => (id === null ? false : (images.get(id) ?? false)),
    translations: (kind, row) => translationsOf(groups.get(kind), row),
  };
}
