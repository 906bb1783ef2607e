import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Every schema module imports `z` from here, so `.openapi()` is always available.
extendZodWithOpenApi(z);

export { z };

/** Compiles only when schema S's validated output is a T: checks a schema against the domain type it feeds. */
export type OutputFits<S extends z.ZodType<T>, T> = S;

/** Compiles only when schema S's validated output and T are the same type, each assignable to the other. */
export type OutputIs<S extends z.ZodType<T>, T extends Output, Output = z.output<S>> = S;

/** Compiles only when a value of domain type T is valid output of schema S (what an answer schema needs). */
export type FitsSchema<T extends z.output<S>, S extends z.ZodType> = T;
