import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Every schema module imports `z` from here, so `.openapi()` is always available.
extendZodWithOpenApi(z);

export { z };

/** Compiles only when schema S's validated output is a T: checks a schema against the domain type it feeds. */
export type OutputFits<S extends z.ZodType<T>, T> = S;
