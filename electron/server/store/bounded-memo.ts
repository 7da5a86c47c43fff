/**
 * Answers of a pure function, by a key made of its inputs, forgotten all at once when `limit` is
 * reached. Bulk writes ask the same date conversions thousands of times (the same zones, the same
 * hours), and an export the same cost texts and organizer lists: working each out once is a large
 * share of their time, and the bound keeps a calendar where everything differs from keeping it all.
 */
export class BoundedMemo<V> {
  private readonly answers = new Map<string, V>();

  constructor(private readonly limit: number) {}

  get(key: string, compute: () => V): V {
    let v = this.answers.get(key);
    if (v === undefined) {
      v = compute();
      if (this.answers.size >= this.limit) this.answers.clear();
      this.answers.set(key, v);
    }
    return v;
  }
}
