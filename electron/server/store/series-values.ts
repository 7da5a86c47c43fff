/**
 * A series' values and its first event's own. The first event's row holds the series' values
 * except in the groups it changed on its own (`own_fields`); those groups' series values are kept
 * in the series' template. A whole-series change reaches every occurrence that does not own the
 * group (`propagate`); an occurrence changed on its own keeps its change.
 */
import type { DB } from './db';
import type { EventStore } from './events';
import { GROUP_COLUMNS, OWN, type OwnGroup } from './series-fields';
import { templateOf, type SeriesRecords, type SeriesRow, type Template } from './series-record';

export function createSeriesValues(db: DB, events: EventStore, records: SeriesRecords) {
  const { stmt, saveSeries } = records;
  const addOrganizer = db.prepare('INSERT OR IGNORE INTO event_organizers (event_id, organizer_id, position) VALUES (?, ?, ?)');
  const addTerm = db.prepare('INSERT OR IGNORE INTO event_terms (event_id, term_id, position) VALUES (?, ?, ?)');

  /** An occurrence's values, group by group, as comparable text. */
  function groupValues(id: number): Record<string, string> {
    const row = events.get(id)! as unknown as Record<string, unknown>;
    const out: Record<string, string> = {};
    for (const [group, cols] of Object.entries(GROUP_COLUMNS)) out[group] = JSON.stringify(cols.map((c) => row[c]));
    out.when = JSON.stringify([row.start_local, row.end_local, row.timezone, row.all_day]);
    out.organizers = JSON.stringify(events.organizersFor([id]).get(id) ?? []);
    for (const [group, taxonomy] of [['categories', 'category'], ['tags', 'tag']] as const) {
      out[group] = JSON.stringify(stmt('SELECT et.term_id FROM event_terms et JOIN terms t ON t.id = et.term_id WHERE et.event_id = ? AND t.taxonomy = ? ORDER BY et.position').pluck().all(id, taxonomy));
    }
    return out;
  }

  /** Snapshot of the anchor's values of some groups, for the template. */
  function snapshot(id: number, bits: number): Template {
    const row = events.get(id)! as unknown as Record<string, unknown>;
    const t: Template = {};
    for (const [group, cols] of Object.entries(GROUP_COLUMNS)) {
      if (!(bits & OWN[group as OwnGroup])) continue;
      t.cols ??= {};
      for (const c of cols) t.cols[c] = row[c];
    }
    if (bits & OWN.organizers) t.organizers = events.organizersFor([id]).get(id) ?? [];
    for (const [group, taxonomy] of [['categories', 'category'], ['tags', 'tag']] as const) {
      if (!(bits & OWN[group])) continue;
      t[group] = stmt('SELECT et.term_id FROM event_terms et JOIN terms t ON t.id = et.term_id WHERE et.event_id = ? AND t.taxonomy = ? ORDER BY et.position')
        .pluck()
        .all(id, taxonomy) as number[];
    }
    return t;
  }

  /** The groups `bits` of a snapshot. */
  function pick(t: Template, bits: number): Template {
    const out: Template = {};
    for (const [group, cols] of Object.entries(GROUP_COLUMNS)) {
      if (!(bits & OWN[group as OwnGroup]) || !t.cols) continue;
      out.cols ??= {};
      for (const c of cols) out.cols[c] = t.cols[c];
    }
    if (bits & OWN.organizers) out.organizers = t.organizers;
    if (bits & OWN.categories) out.categories = t.categories;
    if (bits & OWN.tags) out.tags = t.tags;
    return out;
  }

  /** A series' own values of some groups: its template's, else its first event's. */
  function seriesValues(s: SeriesRow, bits: number): Template {
    const t = templateOf(s);
    const out = snapshot(s.id, bits);
    for (const [group, cols] of Object.entries(GROUP_COLUMNS)) {
      if (bits & OWN[group as OwnGroup] && t.cols && cols.every((c) => c in t.cols!)) for (const c of cols) out.cols![c] = t.cols[c];
    }
    if (bits & OWN.organizers && t.organizers) out.organizers = t.organizers;
    if (bits & OWN.categories && t.categories) out.categories = t.categories;
    if (bits & OWN.tags && t.tags) out.tags = t.tags;
    return out;
  }

  /** Keeps series values (of groups the first event now changes on its own) in the template. */
  function keepInTemplate(s: SeriesRow, snap: Template): void {
    const t = templateOf(s);
    s.template = JSON.stringify({ ...t, ...snap, cols: { ...t.cols, ...snap.cols } });
    saveSeries(s);
  }

  /**
   * Takes groups out of the template: the first event no longer changes them on its own, so its
   * own values are the series' again. A value left behind would be copied to every occurrence by
   * the next change to all, over the one that change sent.
   */
  function dropFromTemplate(s: SeriesRow, bits: number): void {
    const t = templateOf(s);
    for (const [group, cols] of Object.entries(GROUP_COLUMNS)) {
      if (!(bits & OWN[group as OwnGroup]) || !t.cols) continue;
      for (const c of cols) delete t.cols[c];
    }
    if (t.cols && !Object.keys(t.cols).length) delete t.cols;
    if (bits & OWN.organizers) delete t.organizers;
    if (bits & OWN.categories) delete t.categories;
    if (bits & OWN.tags) delete t.tags;
    s.template = JSON.stringify(t);
    saveSeries(s);
  }

  function restoreSnapshot(id: number, t: Template): void {
    if (t.cols && Object.keys(t.cols).length) {
      const keys = Object.keys(t.cols);
      stmt(`UPDATE events SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`).run(...keys.map((k) => t.cols![k]), id);
    }
    if (t.organizers) {
      stmt('DELETE FROM event_organizers WHERE event_id = ?').run(id);
      t.organizers.forEach((o, i) => addOrganizer.run(id, o, i));
    }
    for (const [group, taxonomy] of [['categories', 'category'], ['tags', 'tag']] as const) {
      const list = t[group];
      if (!list) continue;
      stmt('DELETE FROM event_terms WHERE event_id = ? AND term_id IN (SELECT id FROM terms WHERE taxonomy = ?)').run(id, taxonomy);
      list.forEach((term, i) => addTerm.run(id, term, i));
    }
  }

  /** Copies the anchor's (or the template's) values of `bits` to every occurrence that does not own them. */
  function propagate(s: SeriesRow, bits: number): void {
    const template = templateOf(s);
    const live = "parent_id = ? AND own_fields & ? = 0 AND status NOT IN ('trash', 'inherit')";
    const textBits = OWN.title | OWN.description | OWN.excerpt;
    if (bits & textBits) {
      for (const bit of [OWN.title, OWN.description, OWN.excerpt]) {
        if (bits & bit) events.beforeTextChange(stmt(`SELECT id FROM events WHERE ${live}`).pluck().all(s.id, bit) as number[]);
      }
    }
    for (const [group, cols] of Object.entries(GROUP_COLUMNS)) {
      const bit = OWN[group as OwnGroup];
      if (!(bits & bit)) continue;
      const fromTemplate = cols.every((c) => template.cols && c in template.cols);
      if (fromTemplate) {
        stmt(`UPDATE events SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE ${live}`).run(...cols.map((c) => template.cols![c]), s.id, bit);
      } else {
        stmt(`UPDATE events SET (${cols.join(', ')}) = (SELECT ${cols.join(', ')} FROM events WHERE id = ?) WHERE ${live}`).run(s.id, s.id, bit);
      }
    }
    if (bits & OWN.organizers) {
      stmt(`DELETE FROM event_organizers WHERE event_id IN (SELECT id FROM events WHERE ${live})`).run(s.id, OWN.organizers);
      const list = template.organizers ?? events.organizersFor([s.id]).get(s.id) ?? [];
      const targets = stmt(`SELECT id FROM events WHERE ${live}`).pluck().all(s.id, OWN.organizers) as number[];
      for (const id of targets) list.forEach((o, i) => addOrganizer.run(id, o, i));
    }
    for (const [group, taxonomy] of [['categories', 'category'], ['tags', 'tag']] as const) {
      const bit = OWN[group];
      if (!(bits & bit)) continue;
      stmt(`DELETE FROM event_terms WHERE term_id IN (SELECT id FROM terms WHERE taxonomy = ?) AND event_id IN (SELECT id FROM events WHERE ${live})`).run(taxonomy, s.id, bit);
      const list =
        template[group] ??
        (stmt('SELECT et.term_id FROM event_terms et JOIN terms t ON t.id = et.term_id WHERE et.event_id = ? AND t.taxonomy = ? ORDER BY et.position').pluck().all(s.id, taxonomy) as number[]);
      const targets = stmt(`SELECT id FROM events WHERE ${live}`).pluck().all(s.id, bit) as number[];
      for (const id of targets) list.forEach((t, i) => addTerm.run(id, t, i));
    }
  }

  return { groupValues, snapshot, pick, seriesValues, keepInTemplate, dropFromTemplate, restoreSnapshot, propagate };
}

export type SeriesValues = ReturnType<typeof createSeriesValues>;
