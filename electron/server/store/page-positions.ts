/**
 * Where deep pages of the events list start. OFFSET in the list's start-then-id order is slow: the
 * index is in start order, so SQLite sorts every run of equal starts by id on the way to the offset
 * (page 500 of 100,000 events: about 15 ms each time). A page instead starts from a remembered
 * position, the end of the page before it or the same page asked before, until the data changes
 * like the other derived caches; otherwise from one found in start order alone (the start at that
 * offset and how many rows come before it: two index scans, a fifth of the cost).
 */
import type { Stmt } from './db';
import { createDerivedCache, type DataStamp } from './derived-cache';

/** A list's FROM and WHERE (`e` is the events table) with their parameters. */
export interface ListFilter {
  from: string;
  where: string;
  params: unknown[];
}

/** `skip` rows after the first with `start_local` ≥ `start` (> `start`, or a larger id than `afterId` when given). */
interface PagePosition {
  start: string;
  afterId?: number;
  skip: number;
}

/** How far past a known position a page is still read from it rather than located afresh. */
const NEAR = 200;
/** Positions remembered per list. */
const PER_LIST = 64;

export function createPagePositions(stmt: (sql: string) => Stmt, stamp: DataStamp) {
  const lists = createDerivedCache<Map<number, PagePosition>>(stamp, 100);

  function locate(f: ListFilter, offset: number): PagePosition | undefined {
    const start = stmt(`SELECT e.start_local FROM ${f.from} WHERE ${f.where} ORDER BY e.start_local LIMIT 1 OFFSET ?`).pluck().get(...f.params, offset) as string | undefined;
    if (start === undefined) return undefined;
    const before = stmt(`SELECT count(*) FROM ${f.from} WHERE ${f.where} AND e.start_local < ?`).pluck().get(...f.params, start) as number;
    return { start, skip: offset - before };
  }

  function remember(marks: Map<number, PagePosition>, offset: number, at: PagePosition) {
    if (marks.size >= PER_LIST) marks.delete(marks.keys().next().value!);
    marks.set(offset, at);
  }

  /**
   * The ids of the page at `offset` of the list `f`, in start-then-id order. `startingAt(start)`
   * is the same list with its lower start bounds raised to `start`, so that the index range begins
   * at the position (rows from there on meet the list's own bounds anyway).
   */
  return function page(f: ListFilter, startingAt: (start: string) => ListFilter, offset: number, size: number): number[] {
    const known = lists.current();
    const key = `${f.from}\u0000${f.where}\u0000${JSON.stringify(f.params)}`;
    let marks = known.get(key);
    if (!marks) known.set(key, (marks = new Map()));
    let at = marks.get(offset);
    if (!at) {
      let near: [number, PagePosition] | undefined;
      for (const mark of marks) if (mark[0] <= offset && offset - mark[0] <= NEAR && (!near || mark[0] > near[0])) near = mark;
      at = near ? { ...near[1], skip: near[1].skip + offset - near[0] } : locate(f, offset);
      if (!at) return [];
      remember(marks, offset, at);
    }
    const g = startingAt(at.start);
    const after = at.afterId === undefined ? '' : ' AND (e.start_local > ? OR e.id > ?)';
    const rows = stmt(`SELECT e.id, e.start_local FROM ${g.from} WHERE ${g.where}${after} ORDER BY e.start_local ASC, e.id ASC LIMIT ? OFFSET ?`)
      .raw()
      .all(...g.params, ...(at.afterId === undefined ? [] : [at.start, at.afterId]), size, at.skip) as Array<[number, string]>;
    const last = rows[rows.length - 1];
    if (last) remember(marks, offset + rows.length, { start: last[1], afterId: last[0], skip: 0 });
    return rows.map((r) => r[0]);
  };
}
