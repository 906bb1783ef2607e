// Tests never reach GitHub or a developer's configuration by accident.
for (const name of [
  'APP_ID',
  'PRIVATE_KEY',
  'PRIVATE_KEY_PATH',
  'WEBHOOK_SECRET',
  'DATABASE_URL',
  'ADMIN_TOKEN',
]) {
  delete process.env[name];
}
process.env.LOG_LEVEL ??= 'silent';
