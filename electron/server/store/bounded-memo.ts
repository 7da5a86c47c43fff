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

/**
 * A BoundedMemo by two keys: a few outer ones (time zones) and many inner ones (times). One key
 * made of both was a new string to build and hash on every call, about a microsecond each, and an
 * import asks several for every event.
 */
export class BoundedPairMemo<V> {
  private readonly answers = new Map<string, Map<string | number, V>>();
  private size = 0;

  constructor(private readonly limit: number) {}

  get(outer: string, inner: string | number, compute: () => V): V {
    let answers = this.answers.get(outer);
    let v = answers?.get(inner);
    if (v === undefined) {
      v = compute();
      if (this.size >= this.limit) {
        this.clear();
        answers = undefined;
      }
      if (!answers) {
        answers = new Map<string | number, V>();
        this.answers.set(outer, answers);
      }
      answers.set(inner, v);
      this.size++;
    }
    return v;
  }

  clear(): void {
    this.answers.clear();
    this.size = 0;
  }
}
