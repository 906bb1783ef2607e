import type { Knex } from 'knex';

/** Which org a GitHub App installation belongs to: check runs go only to its repositories for that org. */
export interface InstallationLink {
  installationId: number;
  org: string;
  createdAt: string;
}

interface Row {
  installation_id: number | string;
  org: string;
  created_at: string;
}

const fromRow = (r: Row): InstallationLink => ({
  installationId: Number(r.installation_id),
  org: r.org,
  createdAt: r.created_at,
});

/** Links the installation unless it is linked already; answers the org it is linked to afterwards. */
export async function linkInstallation(
  db: Knex,
  link: InstallationLink,
): Promise<{ org: string; created: boolean }> {
  const before = await findInstallation(db, link.installationId);
  if (before) return { org: before.org, created: false };
  // Two admins linking at once: the primary key keeps the first, and both read what was kept.
  await db('github_installations')
    .insert({ installation_id: link.installationId, org: link.org, created_at: link.createdAt })
    .onConflict('installation_id')
    .ignore();
  const row = (await findInstallation(db, link.installationId))!;
  return { org: row.org, created: row.org === link.org };
}

export async function findInstallation(
  db: Knex,
  installationId: number,
): Promise<InstallationLink | undefined> {
  const row = await db<Row>('github_installations').where({ installation_id: installationId }).first();
  return row ? fromRow(row) : undefined;
}

/** Keyset page ordered by installation id. */
export async function listInstallations(
  db: Knex,
  limit: number,
  after?: number,
): Promise<InstallationLink[]> {
  const q = db<Row>('github_installations').orderBy('installation_id', 'asc').limit(limit);
  if (after !== undefined) q.where('installation_id', '>', after);
  return (await q).map(fromRow);
}

export async function unlinkInstallation(db: Knex, installationId: number): Promise<boolean> {
  return (await db('github_installations').where({ installation_id: installationId }).delete()) > 0;
}
