export interface Page<T> {
  items: T[];
  next?: string;
}

/** Pages of a list loaded on demand; one load at a time, so a double click on "Load more…" loads once. */
export class Pager<T> {
  items: T[] = [];
  private cursor: string | undefined;
  private started = false;
  private finished = false;
  private loading: Promise<void> | undefined;
  private abort = new AbortController();

  constructor(private readonly fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page<T>>) {}

  get hasMore(): boolean {
    return !this.finished;
  }

  /** Loads the first page unless one was loaded already. */
  async first(): Promise<T[]> {
    if (!this.started) await this.loadMore();
    return this.items;
  }

  loadMore(): Promise<void> {
    if (this.loading) return this.loading;
    if (this.finished) return Promise.resolve();
    const signal = this.abort.signal;
    this.loading = this.fetchPage(this.cursor, signal)
      .then((page) => {
        if (signal.aborted) return;
        this.items.push(...page.items);
        this.cursor = page.next || undefined;
        this.finished = !this.cursor;
        this.started = true;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  reset(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.items = [];
    this.cursor = undefined;
    this.started = false;
    this.finished = false;
    this.loading = undefined;
  }
}
