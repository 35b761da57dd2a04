// Paging: every list call returns one page shape, awaited for a page or iterated for every item (as stripe-node's
// list does).
import { ResponseShapeError } from './errors';

export interface Page<T> extends AsyncIterable<T> {
  /** The items of this page. */
  readonly items: T[];
  /** The cursor (or page token) of the next page; undefined on the last page. */
  readonly next?: string;
  /** Fetches the next page; undefined on the last page. */
  nextPage(): Promise<Page<T> | undefined>;
}

/** What a list call returns: awaited, one page; iterated with `for await`, every item of it and of all following. */
export type PagePromise<T> = Promise<Page<T>> & AsyncIterable<T>;

/** One page as an endpoint maps it from its response. */
export type FetchPage<T> = (token: string | undefined) => Promise<{ items: T[]; next?: string }>;

/** How an endpoint fetches its pages, and the response field that holds the next token (named by its errors). */
interface Source<T> {
  fetchPage: FetchPage<T>;
  field: string;
}

/** Yields every item from `first` on, fetching a page only when the previous one is used up. */
async function* itemsFrom<T>(first: Promise<Page<T>>): AsyncGenerator<T> {
  for (let page: Page<T> | undefined = await first; page; page = await page.nextPage()) yield* page.items;
}

class ListPage<T> implements Page<T> {
  readonly #source: Source<T>;
  /** The tokens this page and the pages before it were fetched with are the first `#depth` of `#seen`. */
  readonly #seen: Set<string>;
  readonly #depth: number;

  constructor(
    readonly items: T[],
    readonly next: string | undefined,
    source: Source<T>,
    seen: Set<string>,
    depth: number,
  ) {
    this.#source = source;
    this.#seen = seen;
    this.#depth = depth;
  }

  async nextPage(): Promise<Page<T> | undefined> {
    if (this.next === undefined) return undefined;
    // A page followed again (its chain already went on) copies the tokens up to it: a repeat counts along one chain.
    const seen = this.#seen.size === this.#depth ? this.#seen : new Set([...this.#seen].slice(0, this.#depth));
    if (seen.has(this.next)) {
      throw new ResponseShapeError(`The service returned the page token "${this.next}" twice`, this.#source.field);
    }
    return fetchFrom(this.#source, this.next, seen);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return itemsFrom(Promise.resolve(this));
  }
}

async function fetchFrom<T>(source: Source<T>, token: string | undefined, seen: Set<string>): Promise<Page<T>> {
  if (token !== undefined) seen.add(token);
  const depth = seen.size;
  const { items, next } = await source.fetchPage(token);
  return new ListPage(items, next, source, seen, depth);
}

/**
 * The page at `token` (the first when undefined), fetched now, which iterates on through the pages after it.
 * `field` is the response field of the next token, named when the service repeats one.
 */
export function pagePromise<T>(fetchPage: FetchPage<T>, token?: string, field = 'nextPageToken'): PagePromise<T> {
  const first = fetchFrom({ fetchPage, field }, token, new Set());
  first.catch(() => undefined); // a caller that only iterates gets the rejection from the iteration
  return Object.assign(first, { [Symbol.asyncIterator]: () => itemsFrom(first) });
}
