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

/** Empty pages in a row, each with a new token, after which iteration stops: a service going round in circles. */
export const MAX_EMPTY_PAGES = 20;

/** Yields every item from `first` on, fetching a page only when the previous one is used up. */
async function* itemsFrom<T>(first: Promise<Page<T>>): AsyncGenerator<T> {
  for (let page: Page<T> | undefined = await first; page; page = await page.nextPage()) yield* page.items;
}

class ListPage<T> implements Page<T> {
  readonly #source: Source<T>;
  /** The tokens this page and the pages before it were fetched with are the first `#depth` of `#seen`. */
  readonly #seen: Set<string>;
  readonly #depth: number;
  /** Empty pages in a row up to this one. */
  readonly #empty: number;

  constructor(
    readonly items: T[],
    readonly next: string | undefined,
    source: Source<T>,
    seen: Set<string>,
    depth: number,
    empty: number,
  ) {
    this.#source = source;
    this.#seen = seen;
    this.#depth = depth;
    this.#empty = items.length ? 0 : empty + 1;
  }

  async nextPage(): Promise<Page<T> | undefined> {
    if (this.next === undefined) return undefined;
    const { field } = this.#source;
    if (this.#empty >= MAX_EMPTY_PAGES) {
      throw new ResponseShapeError(`The service returned ${this.#empty} empty pages in a row; stopped`, field);
    }
    // A page followed again (its chain already went on) copies the tokens up to it: a repeat counts along one chain.
    const seen = this.#seen.size === this.#depth ? this.#seen : new Set([...this.#seen].slice(0, this.#depth));
    // The token itself is left out of the message: it is the service's text, of any length.
    if (seen.has(this.next)) throw new ResponseShapeError(`The service returned the same ${field} twice`, field);
    return fetchFrom(this.#source, this.next, seen, this.#empty);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return itemsFrom(Promise.resolve(this));
  }
}

async function fetchFrom<T>(
  source: Source<T>,
  token: string | undefined,
  seen: Set<string>,
  empty: number,
): Promise<Page<T>> {
  if (token !== undefined) seen.add(token);
  const depth = seen.size;
  const { items, next } = await source.fetchPage(token);
  return new ListPage(items, next, source, seen, depth, empty);
}

/**
 * The page at `token` (the first when undefined), fetched now, which iterates on through the pages after it.
 * `field` is the response field of the next token, named when the service repeats one.
 */
export function pagePromise<T>(fetchPage: FetchPage<T>, token?: string, field = 'nextPageToken'): PagePromise<T> {
  const first = fetchFrom({ fetchPage, field }, token, new Set(), 0);
  first.catch(() => undefined); // a caller that only iterates gets the rejection from the iteration
  return Object.assign(first, { [Symbol.asyncIterator]: () => itemsFrom(first) });
}
