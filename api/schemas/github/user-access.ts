import { z } from '../zod.js';

/*
 * What GitHub answers during "Sign in with GitHub", read as hostile input: only the fields the console
 * uses, each checked (unknown fields are ignored).
 */

/** `POST /login/oauth/access_token` with `Accept: application/json`: a token, or an OAuth error (status 200). */
export const GitHubTokenAnswer = z.union([
  z.object({
    access_token: z.string().min(1).max(2000),
    token_type: z.string().optional(),
    /** Seconds until the user access token expires (absent when the App's tokens do not expire). */
    expires_in: z.coerce.number().int().positive().optional(),
  }),
  z.object({ error: z.string().max(200), error_description: z.string().max(2000).optional() }),
]);
export type GitHubTokenAnswer = z.infer<typeof GitHubTokenAnswer>;

/** `GET /user`. */
export const GitHubUser = z.object({ login: z.string().min(1).max(100), id: z.number().int() });
export type GitHubUser = z.infer<typeof GitHubUser>;

/** `GET /user/installations`: the App's installations the user can reach. */
export const GitHubUserInstallations = z.object({
  total_count: z.number().int().nonnegative(),
  installations: z.array(z.object({ id: z.number().int().positive() })),
});
export type GitHubUserInstallations = z.infer<typeof GitHubUserInstallations>;

/** `GET /user/installations/{installation_id}/repositories`: those of its repositories the user can read. */
export const GitHubUserRepositories = z.object({
  total_count: z.number().int().nonnegative(),
  repositories: z.array(z.object({ full_name: z.string().min(3).max(200) })),
});
export type GitHubUserRepositories = z.infer<typeof GitHubUserRepositories>;
