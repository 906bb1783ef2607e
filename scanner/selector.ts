/** The same selector the service stores: frames joined with ` |> `, shadow roots with ` >>> `. */
export function selectorOf(target: unknown[]): string {
  return target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' |> ');
}
