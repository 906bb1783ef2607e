/** A page as a customer knows it: its public path, not the host the scan ran against. Pure. */
export function publicPath(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
