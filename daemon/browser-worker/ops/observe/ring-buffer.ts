// A bounded buffer of numbered entries: the oldest go first once it is full,
// and a reader that asks from a cursor learns how many it missed. Pure.

export interface RingRead<T> {
  entries: (T & { id: number })[];
  /** The id of the last entry returned (or the cursor given, when none was). */
  nextCursor: number;
  /** Entries after the cursor that were dropped before this read. */
  dropped: number;
  /** More entries are waiting past the limit. */
  more: boolean;
}

export class RingBuffer<T> {
  private readonly items: (T & { id: number })[] = [];
  private lastId = 0;

  constructor(readonly capacity: number) {}

  push(entry: T): T & { id: number } {
    const item = { ...entry, id: ++this.lastId };
    this.items.push(item);
    if (this.items.length > this.capacity) this.items.shift();
    return item;
  }

  /** Entries with an id after `since`, oldest first, at most `limit`. */
  read(since: number, limit: number): RingRead<T> {
    const firstKept = this.items.length > 0 ? this.items[0]!.id : this.lastId + 1;
    const dropped = Math.max(0, firstKept - since - 1);
    const start = this.items.findIndex((e) => e.id > since);
    const after = start === -1 ? [] : this.items.slice(start);
    const entries = after.slice(0, limit);
    return {
      entries,
      // A cursor past the last id (a buffer started over) comes back to it, so the next read sees what follows.
      nextCursor: entries.length > 0 ? entries[entries.length - 1]!.id : Math.min(since, this.lastId),
      dropped: Math.min(dropped, Math.max(0, this.lastId - since)),
      more: after.length > entries.length,
    };
  }
}
