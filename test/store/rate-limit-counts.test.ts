import { migrateToLatest } from '../../api/store/migrations/index.js';
import { postgresKnex } from '../../api/store/db.js';
import { databaseRateLimits, type RateLimitStore } from '../../api/store/access/rate-limits.js';
import { describeWith, postgres } from '../helpers/requirements.js';
import { createPgDatabase, type FreshPgDatabase } from '../helpers/server-process.js';

describeWith(postgres, 'rate-limit counters in PostgreSQL', () => {
  let database: FreshPgDatabase | undefined;
  let instances: RateLimitStore[] = [];
  let statements = 0;

  beforeAll(async () => {
    database = await createPgDatabase(process.env.TEST_DATABASE_URL!, 'a11y_rl');
    const { url } = database;
    const setup = postgresKnex(url, undefined, 3);
    await migrateToLatest(setup);
    await setup.destroy();
    // Two instances on one database, each with its own two connections, as in production.
    instances = [0, 1].map(() => {
      const db = postgresKnex(url, undefined, 2);
      db.on('query', () => statements++);
      return databaseRateLimits(db);
    });
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.close()));
    // Also after a failed start: the database is dropped whatever happened.
    await database?.drop();
  });

  it('every concurrent hit of two instances gets its own count, none lost, in fewer statements than hits', async () => {
    statements = 0;
    const buckets = Array.from({ length: 400 }, (_, i) => (i % 4 === 0 ? 'key:b' : 'key:a'));
    const hits = await Promise.all(buckets.map((bucket, i) => instances[i % 2].hit(bucket, 60)));
    const countsOf = (bucket: string) =>
      hits
        .filter((_, i) => buckets[i] === bucket)
        .map((h) => h.count)
        .sort((x, y) => x - y);
    expect(countsOf('key:a')).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(countsOf('key:b')).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect((await instances[0].peek('key:a', 60)).count).toBe(300);
    expect((await instances[1].peek('key:b', 60)).count).toBe(100);
    // 2 peeks beside the hits' upserts: concurrent hits shared statements.
    expect(statements - 2).toBeLessThan(400 / 4);
  });
});
