/** Between shadow-DOM hosts and the element inside (the old shadow-piercing combinator). */
export const SHADOW_SEPARATOR = ' >>> ';
/** Between an iframe and a selector inside its document. */
export const FRAME_SEPARATOR = ' |> ';

/** axe-core's `target` of a node: one entry per frame level, an array where it passes shadow roots. */
export type AxeTarget = ReadonlyArray<string | readonly string[]>;

/**
 * One entry per frame level (outermost first); an entry that is an array is a path through shadow roots.
 * Joined so both paths survive and stay readable: `["iframe#pay", ["#host", "button"]]` →
 * `iframe#pay |> #host >>> button`. The scanner and the service store the same selector.
 */
export function axeTargetToSelector(target: AxeTarget): string {
  return target
    .map((level) => (typeof level === 'string' ? level : level.join(SHADOW_SEPARATOR)))
    .join(FRAME_SEPARATOR);
}
