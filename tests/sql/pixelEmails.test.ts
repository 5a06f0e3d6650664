import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startThrowawayPostgres, type ThrowawayPostgres } from './throwawayPostgres.ts';

const migrationsDir = join(import.meta.dirname, '../../supabase/migrations');
const migration = readdirSync(migrationsDir).find((name) => name.endsWith('_pixel_emails.sql'))!;
const migrationSql = readFileSync(join(migrationsDir, migration), 'utf8');

/** The API roles and default privileges of a Supabase project (supabase/postgres's roles and schema grants). */
const SUPABASE_ROLES = `
  create role anon nologin noinherit;
  create role authenticated nologin noinherit;
  create role service_role nologin noinherit bypassrls;
  grant usage on schema public to anon, authenticated, service_role;
  alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
  alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
`;

let server: ThrowawayPostgres;
let db: pg.Client;

async function errorCodeOf(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

/** Runs a statement as the anonymous key's role, as PostgREST does for the app. */
async function asAnon(sql: string, values: unknown[] = []) {
  await db.query('begin');
  try {
    await db.query('set local role anon');
    return await db.query(sql, values);
  } finally {
    await db.query('rollback');
  }
}

/** Calls the function as anon and keeps what it did. */
async function upsertAsAnon(email: string | null) {
  await db.query('begin');
  try {
    await db.query('set local role anon');
    await db.query('select public.upsert_pixel_email($1)', [email]);
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}

const rows = async () => (await db.query('select email, call_count, first_seen_at, last_seen_at from public.pixel_emails order by email')).rows;

describe(`supabase/migrations/${migration} on a real PostgreSQL`, () => {
  beforeAll(async () => {
    server = await startThrowawayPostgres();
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    await admin.query('create database app');
    await admin.end();
    db = new pg.Client({ connectionString: server.url('app') });
    await db.connect();
    await db.query(SUPABASE_ROLES);
    await db.query(migrationSql);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    server?.stop();
  });

  beforeEach(async () => {
    await db.query('truncate public.pixel_emails');
  });

  it('applies cleanly to an empty database, and again over itself', async () => {
    await db.query(migrationSql);
    const table = await db.query("select relrowsecurity from pg_class where oid = 'public.pixel_emails'::regclass");
    expect(table.rows).toEqual([{ relrowsecurity: true }]);
  });

  it('inserts a new address, normalised to lower case without surrounding spaces', async () => {
    await upsertAsAnon('  Ann.Lee@Example.COM ');
    const [row] = await rows();
    expect(row).toMatchObject({ email: 'ann.lee@example.com', call_count: 1 });
    expect(row.last_seen_at.getTime()).toBe(row.first_seen_at.getTime());
  });

  it('updates on repeat: the count rises, last seen moves, first seen stays', async () => {
    await upsertAsAnon('ann@example.com');
    const [first] = await rows();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await upsertAsAnon('ANN@example.com');
    await upsertAsAnon('ann@example.com');
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ email: 'ann@example.com', call_count: 3 });
    expect(all[0].first_seen_at.getTime()).toBe(first.first_seen_at.getTime());
    expect(all[0].last_seen_at.getTime()).toBeGreaterThan(first.last_seen_at.getTime());
  });

  it('refuses values that are not e-mail addresses, and addresses over 254 characters', async () => {
    for (const bad of ['not-an-address', 'ann@example', 'ann @example.com', '@example.com', '', '   ', null]) {
      expect(await errorCodeOf(() => upsertAsAnon(bad)), String(bad)).toBe('22023');
    }
    const at254 = `${'a'.repeat(254 - '@example.com'.length)}@example.com`;
    expect(await errorCodeOf(() => upsertAsAnon(`${at254}x`))).toBe('22023');
    await upsertAsAnon(at254);
    expect((await rows()).map((r) => r.email)).toEqual([at254]);
  });

  it('lets anon execute the function and nothing else: no select, insert, update or delete on the table', async () => {
    await upsertAsAnon('ann@example.com');
    const denied = '42501';
    expect(await errorCodeOf(() => asAnon('select * from public.pixel_emails'))).toBe(denied);
    expect(await errorCodeOf(() => asAnon("insert into public.pixel_emails (email) values ('eve@example.com')"))).toBe(denied);
    expect(await errorCodeOf(() => asAnon('update public.pixel_emails set call_count = 99'))).toBe(denied);
    expect(await errorCodeOf(() => asAnon('delete from public.pixel_emails'))).toBe(denied);
    expect(await rows()).toMatchObject([{ email: 'ann@example.com', call_count: 1 }]);

    const executable = await db.query(
      `select p.oid::regprocedure::text as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and has_function_privilege('anon', p.oid, 'execute')`,
    );
    expect(executable.rows).toEqual([{ name: 'upsert_pixel_email(text)' }]);
    const authenticated = await db.query("select has_function_privilege('authenticated', 'public.upsert_pixel_email(text)', 'execute') as can");
    expect(authenticated.rows).toEqual([{ can: false }]);
  });

  it('runs as its owner with a fixed search_path, and the table has no policy for anyone', async () => {
    const fn = await db.query("select prosecdef, proconfig from pg_proc where oid = 'public.upsert_pixel_email(text)'::regprocedure");
    expect(fn.rows).toEqual([{ prosecdef: true, proconfig: ['search_path=""'] }]);
    const policies = await db.query("select count(*)::int as n from pg_policies where schemaname = 'public' and tablename = 'pixel_emails'");
    expect(policies.rows).toEqual([{ n: 0 }]);
  });
});
