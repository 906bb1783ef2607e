/**
 * A built folder the CLI served on loopback for the head scan (`--serve DIR`), at a port that lasted only
 * that run: the command that scans the failing pages again names them by path with the folder.
 */
export interface ServedFolderRef {
  /** The folder as the command names it, from the working folder where the CLI ran. */
  dir: string;
  /** `--spa`: a path that names no file answered the folder's index.html. */
  spa: boolean;
}

/**
 * A served folder's name that the service keeps and the markdown command can carry: letters, digits and
 * `_@%+=:,./ -`, not starting with `-` (which would read as an option). Other names stay with the CLI.
 */
export const SERVED_DIR = /^(?!-)[\p{L}\p{N}\p{M}_@%+=:,./ -]{1,1024}$/u;

/** An http address on this machine's loopback (where `--serve` serves a folder). */
export function isLoopbackUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}

/** A served page by its path (and query), as `--serve` takes it again. */
export const servedPath = (url: string) => {
  const { pathname, search } = new URL(url);
  return pathname + search;
};
