/** "1 page", "3 pages", "2 pages were": a count with its noun in the right number. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A page's address with the viewport it was scanned at, when one was named: `https://…/cart (390x844)`. */
export const atViewport = (url: string, viewport: string | null | undefined): string =>
  viewport ? `${url} (${viewport})` : url;
