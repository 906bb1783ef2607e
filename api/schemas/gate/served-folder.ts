import { SERVED_DIR, type ServedFolderRef } from '../../../core/gate/served-folder.js';
import { z, type OutputIs } from '../zod.js';

/** A scan's and a deploy event's `served`: the built folder the CLI served on loopback for the scan. */
export const ServedFolderSchema = z
  .object({
    // A refinement, not a pattern: the rule needs Unicode classes, which an OpenAPI pattern cannot carry.
    dir: z
      .string()
      .refine(
        (dir) => SERVED_DIR.test(dir),
        "must be a folder's name: letters, digits and _@%+=:,./ - (not starting with -), at most 1,024",
      )
      .openapi({
        description:
          'The folder as `--serve` named it, from the working folder: letters, digits and `_@%+=:,./ -`, ' +
          'not starting with `-`, at most 1,024 characters.',
        example: 'site',
      }),
    spa: z
      .boolean()
      .default(false)
      .openapi({ description: "`--spa`: a path that names no file answered the folder's index.html." }),
  })
  .openapi('ServedFolder', {
    description:
      'The pages are a built folder the CLI served on loopback for the scan (`--serve DIR`), at a port that ' +
      'lasted only the run: the check run names the failing pages by path with `--serve DIR` in the command ' +
      'that scans them again.',
  });

// The kernel's served folder (core/gate/served-folder.ts) is what this schema produces, exactly.
type _DomainServedFolder = OutputIs<typeof ServedFolderSchema, ServedFolderRef>;
