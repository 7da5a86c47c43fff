/**
 * Featured images. The app is offline, so an image URL is kept as given, never fetched; each
 * distinct URL becomes an image record with an id (as the original's attachments do), so a client
 * can reuse it by id.
 */
import { rowsByIds, statementCache, type DB } from './db';
import type { PostRegistry } from './posts';
import type { ImageInput } from '../../../shared/schema/kinds';
import type { Image } from '../../../shared/api/records';
import { invalidParam } from '../errors';

export interface ImageRow {
  id: number;
  url: string;
  extension: string;
  width: number | null;
  height: number | null;
  filesize: number | null;
  mime: string;
}

const MIME: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', avif: 'image/avif',
};

function extensionOf(url: string): string {
  try {
    const m = /\.([a-z0-9]{1,5})$/i.exec(new URL(url).pathname);
    return m ? m[1].toLowerCase() : '';
  } catch {
    return '';
  }
}

export function createImageStore(db: DB, registry: PostRegistry) {
  const byId = db.prepare<[number], ImageRow>('SELECT * FROM images WHERE id = ?');
  const byUrl = db.prepare<[string], ImageRow>('SELECT * FROM images WHERE url = ?');
  const insert = db.prepare('INSERT INTO images (id, url, extension, mime) VALUES (?, ?, ?, ?)');
  const stmt = statementCache(db);

  return {
    get(id: number): ImageRow | undefined {
      return byId.get(id);
    },
    /** The image id to store for a request's `image` value; `null` clears it. */
    resolve(input: ImageInput, param = 'image'): number | null {
      if (input === null) return null;
      if ('id' in input) {
        if (!byId.get(input.id)) throw invalidParam(param, 'invalid_image');
        return input.id;
      }
      const found = byUrl.get(input.url);
      if (found) return found.id;
      const id = registry.allocate('image');
      const ext = extensionOf(input.url);
      insert.run(id, input.url, ext, MIME[ext] ?? '');
      return id;
    },
    /** The `image` objects of these image ids (falsy keys left out), in one query for a page. */
    toApi(ids: Array<number | null>): Map<number, Image> {
      const out = new Map<number, Image>();
      const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
      for (const row of rowsByIds<ImageRow>(stmt, 'images', wanted).values()) {
        const img: Image = { url: row.url, id: row.id };
        if (row.extension) img.extension = row.extension;
        if (row.width) img.width = row.width;
        if (row.height) img.height = row.height;
        if (row.filesize) img.filesize = row.filesize;
        out.set(row.id, img);
      }
      return out;
    },
  };
}

export type ImageStore = ReturnType<typeof createImageStore>;
