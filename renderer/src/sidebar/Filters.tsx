/** Filters for the calendar; each is one of the API's event list parameters. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryColour, decodeEntities } from '../calendar/toEventInput';
import { activeFilterCount, useFilters } from '../state/filters';
import { useLookups } from '../state/lookups';

interface Item {
  id: number;
  name: string;
  colour?: string;
  depth?: number;
}

function FilterList({ title, items, selected, onToggle }: { title: string; items: Item[]; selected: number[]; onToggle(id: number): void }) {
  const { t } = useTranslation();
  const [needle, setNeedle] = useState('');
  if (items.length === 0) return null;
  const shown = needle ? items.filter((i) => i.name.toLowerCase().includes(needle.toLowerCase())) : items;
  return (
    <details className="filter-list" open={items.length <= 12 || selected.length > 0}>
      <summary>
        {title}
        {selected.length > 0 && <span className="badge">{selected.length}</span>}
      </summary>
      <fieldset>
        <legend className="visually-hidden">{title}</legend>
        {items.length > 8 && (
          <input
            type="search"
            className="filter-search"
            aria-label={t('filters.find_in', { list: title })}
            placeholder={t('filters.find')}
            value={needle}
            onChange={(e) => setNeedle(e.target.value)}
          />
        )}
        <ul>
          {shown.map((i) => (
            <li key={i.id} style={i.depth ? { paddingInlineStart: `${i.depth * 14}px` } : undefined}>
              <label className="check">
                <input type="checkbox" checked={selected.includes(i.id)} onChange={() => onToggle(i.id)} />
                {i.colour && <span className="swatch" style={{ background: i.colour }} aria-hidden="true" />}
                <span className="check-text">{i.name}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
    </details>
  );
}

/** Categories in tree order, children under their parents, siblings by name. */
export function categoryTree<T extends { id: number; parent?: number; name: string }>(list: T[]): Array<T & { depth: number }> {
  const ids = new Set(list.map((c) => c.id));
  const children = new Map<number, T[]>();
  for (const c of list) {
    const p = c.parent && ids.has(c.parent) ? c.parent : 0;
    children.set(p, [...(children.get(p) ?? []), c]);
  }
  const out: Array<T & { depth: number }> = [];
  const byName = (a: T, b: T) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  const walk = (parent: number, depth: number, seen: Set<number>) => {
    for (const c of [...(children.get(parent) ?? [])].sort(byName)) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      out.push({ ...c, depth });
      walk(c.id, depth + 1, seen);
    }
  };
  walk(0, 0, new Set());
  return out;
}

export function Filters() {
  const { t } = useTranslation();
  const f = useFilters();
  const { categories, tags, venues, organizers } = useLookups();
  const count = activeFilterCount(f);
  return (
    <section className="filters" aria-labelledby="filters-heading">
      <div className="sidebar-heading-row">
        <h2 id="filters-heading" className="sidebar-heading">
          {t('filters.title')}
        </h2>
        {count > 0 && (
          <button type="button" className="link-button" onClick={f.clear}>
            {t('filters.clear', { count })}
          </button>
        )}
      </div>
      <label className="check featured-filter">
        <input type="checkbox" checked={f.featured} onChange={(e) => f.setFeatured(e.target.checked)} />
        <span className="check-text">
          <span aria-hidden="true" className="star">★ </span>
          {t('filters.featured')}
        </span>
      </label>
      <FilterList
        title={t('filters.categories')}
        items={categoryTree(categories).map((c) => ({ id: c.id, name: decodeEntities(c.name), colour: categoryColour(c), depth: c.depth }))}
        selected={f.categories}
        onToggle={(id) => f.toggle('categories', id)}
      />
      <FilterList
        title={t('filters.tags')}
        items={tags.map((x) => ({ id: x.id, name: decodeEntities(x.name) }))}
        selected={f.tags}
        onToggle={(id) => f.toggle('tags', id)}
      />
      <FilterList
        title={t('filters.venues')}
        items={venues.map((x) => ({ id: x.id, name: decodeEntities(x.venue ?? `#${x.id}`) }))}
        selected={f.venues}
        onToggle={(id) => f.toggle('venues', id)}
      />
      <FilterList
        title={t('filters.organizers')}
        items={organizers.map((x) => ({ id: x.id, name: decodeEntities(x.organizer ?? `#${x.id}`) }))}
        selected={f.organizers}
        onToggle={(id) => f.toggle('organizers', id)}
      />
    </section>
  );
}
