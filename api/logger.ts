import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

/** JSON logs; credentials are redacted wherever they appear in a logged object. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name: 'a11y-gate',
      level: config.logLevel,
      redact: {
        paths: [
          'key',
          'token',
          'secret',
          'adminToken',
          '*.key',
          '*.token',
          '*.secret',
          'headers.authorization',
          'headers["x-admin-token"]',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
