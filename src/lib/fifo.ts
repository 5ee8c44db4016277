// A first-in first-out queue whose shift is O(1) however long it grows.
// Array.prototype.shift moves every element once an array's backing store
// is too large for V8 to trim in place (tens of thousands of entries), so a
// line of messages drained from its head one by one becomes quadratic
// exactly when it is longest: broker mode's line of unacknowledged messages
// spent 60% of the main thread there under a flood. Here the head is an
// index, and the array is cut down once most of it has been taken.
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, left in place; undefined when empty. */
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** Takes the oldest item; undefined when empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head] = undefined as T; // not kept alive by the queue once taken
    this.head++;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      // Each item is copied at most once per halving: O(1) amortized.
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
