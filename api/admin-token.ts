import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { randomBase62 } from './domain/ids.js';

/**
 * The admin token: ADMIN_TOKEN when set (config already refused a weak one), else the token kept in
 * `<dataDir>/admin-token`, generated with mode 0600 on first start.
 */
export function resolveAdminToken(configured: string | undefined, dataDir: string, logger: Logger): string {
  if (configured) return configured;
  const file = path.resolve(dataDir, 'admin-token');
  if (fs.existsSync(file)) {
    const token = fs.readFileSync(file, 'utf8').trim();
    if (token.length >= 32) {
      logger.info({ file }, 'admin token read from file');
      return token;
    }
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const token = `adm_${randomBase62(40)}`;
  fs.writeFileSync(file, token + '\n', { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  logger.warn(
    { file },
    'ADMIN_TOKEN is not set: generated an admin token and stored it in this file (mode 0600)',
  );
  return token;
}
