// Paging as async iteration: one helper behind every listAll* call.
import { ResponseShapeError } from './errors';

export interface Page<T> {
  items: T[];
  /** Token of the next page; undefined on the last page. */
  next?: string;
}

/** Yields every item of every page, fetching a page only when the previous one is used up. */
export async function* paginate<T>(fetchPage: (token: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  let token: string | undefined;
  const seen = new Set<string>();
  do {
    const page = await fetchPage(token);
    yield* page.items;
    if (page.next !== undefined && seen.has(page.next)) {
      throw new ResponseShapeError(`The service returned the page token "${page.next}" twice`, 'nextPageToken');
    }
    token = page.next;
    if (token !== undefined) seen.add(token);
  } while (token !== undefined);
}
