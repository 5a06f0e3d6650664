import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL server of its own for a test file: a fresh cluster in a temporary directory (initdb), started on a
 * free loopback port (pg_ctl) and removed when stopped. Debian's `postgresql` package provides the binaries
 * (.ci/run installs it); no system service is used. PostgreSQL refuses to run as root, so as root the cluster
 * belongs to the package's `postgres` user.
 */
export interface ThrowawayPostgres {
  /** A connection string for the superuser `postgres` on the given database. */
  url(database?: string): string;
  stop(): void;
}

function postgresBinDir(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  if (versions.length === 0) {
    throw new Error('PostgreSQL is not installed: `apt-get install -y postgresql` (.ci/run does it), or set PG_BIN to the directory holding initdb and pg_ctl.');
  }
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]!;
  return join(root, newest, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function uidOf(user: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'pixel-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = uidOf('postgres');
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args];
    execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  };

  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  try {
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    url: (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
