/**
 * The calendar ranges this process answered last, each with the calendar version it was read at
 * (`calendar_version`): a range asked again is sent from here while the version stands. Bounded: the
 * least recently asked range goes first.
 */
export class RangeCache {
  private readonly entries = new Map<string, { version: string; body: Buffer }>();

  constructor(private readonly maxEntries = 64) {}

  get(key: string): { version: string; body: Buffer } | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: { version: string; body: Buffer }): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
