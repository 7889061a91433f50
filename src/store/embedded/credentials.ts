import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { writePrivateFile } from '../data-dir.js';
import { databaseName, EmbeddedPostgresError, serviceRole, superuser } from './common.js';

/** The embedded server's roles and passwords: the credentials file, the SCRAM form, the service's role and database. */

export interface Credentials {
  superuserPassword: string;
  servicePassword: string;
}

export const credentialsFile = (dataDir: string) => path.join(dataDir, 'postgres-credentials');
export const pendingCredentialsFile = (dataDir: string) => `${credentialsFile(dataDir)}.pending`;

/**
 * The passwords in force, or (`pending`) new ones to put in force. New ones are written before the
 * cluster changes and promoted only once it has taken them, so a crash in between loses nothing:
 * the next start puts the same pending passwords in force again.
 */
export async function credentialsOf(dataDir: string): Promise<{ credentials: Credentials; pending: boolean }> {
  const pendingFile = pendingCredentialsFile(dataDir);
  if (existsSync(pendingFile)) return { credentials: await readCredentials(pendingFile), pending: true };
  if (existsSync(credentialsFile(dataDir)))
    return { credentials: await readCredentials(credentialsFile(dataDir)), pending: false };
  const credentials: Credentials = {
    superuserPassword: randomBytes(32).toString('base64url'),
    servicePassword: randomBytes(32).toString('base64url'),
  };
  await writePrivateFile(pendingFile, `${JSON.stringify(credentials, null, 2)}\n`);
  return { credentials, pending: true };
}

async function readCredentials(file: string): Promise<Credentials> {
  const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Credentials>;
  if (typeof parsed.superuserPassword !== 'string' || typeof parsed.servicePassword !== 'string') {
    throw new EmbeddedPostgresError(
      `${file} is not a credentials file of this service; move it away and start again (new passwords are then set).`,
    );
  }
  return { superuserPassword: parsed.superuserPassword, servicePassword: parsed.servicePassword };
}

/**
 * The form PostgreSQL stores a SCRAM-SHA-256 password in (RFC 5803): statements carry this, never
 * the password, so a server log line quoting one gives nothing away.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest('base64');
  const serverKey = createHmac('sha256', salted).update('Server Key').digest('base64');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey}:${serverKey}`;
}

/**
 * Every start: the service's role (not a superuser, its password from the credentials file), its
 * database, owned by that role, and what the migrations cannot do themselves (pg_trgm). Objects
 * the superuser owns there (all of them, in folders made by older versions) are handed over to
 * the role, so that the migrations that alter them keep working.
 */
export async function prepareDatabase(port: number, credentials: Credentials): Promise<void> {
  const connect = async (database: string) => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: superuser,
      password: credentials.superuserPassword,
      database,
    });
    await client.connect();
    return client;
  };
  const server = await connect('postgres');
  try {
    const exists = (await server.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [serviceRole])).rowCount === 1;
    await server.query(
      `${exists ? 'ALTER' : 'CREATE'} ROLE ${serviceRole} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS ` +
        `PASSWORD '${scramVerifier(credentials.servicePassword)}'`,
    );
    const database = await server.query<{ owner: string }>(
      'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
      [databaseName],
    );
    if (!database.rows[0]) await server.query(`CREATE DATABASE ${databaseName} OWNER ${serviceRole}`);
    else if (database.rows[0].owner !== serviceRole)
      await server.query(`ALTER DATABASE ${databaseName} OWNER TO ${serviceRole}`);
  } finally {
    await server.end();
  }
  const database = await connect(databaseName);
  try {
    await database.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await database.query(handOverToServiceRole);
  } finally {
    await database.end();
  }
}

const handOverToServiceRole = `
DO $$
DECLARE
  statement text;
BEGIN
  FOR statement IN
    SELECT format('ALTER SCHEMA %I OWNER TO ${serviceRole}', n.nspname)
      FROM pg_namespace n
     WHERE n.nspowner = '${superuser}'::regrole AND n.nspname <> 'public' AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
    UNION ALL
    SELECT format('ALTER %s %s OWNER TO ${serviceRole}',
                  CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE'
                                 WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
                  c.oid::regclass)
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relowner = '${superuser}'::regrole AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
       AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
       -- sequences of serial and identity columns follow their table; extensions keep their objects
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i', 'e'))
    UNION ALL
    SELECT format('ALTER ROUTINE %s OWNER TO ${serviceRole}', p.oid::regprocedure)
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE p.proowner = '${superuser}'::regrole AND p.prokind IN ('f', 'p')
       AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
    UNION ALL
    SELECT format('ALTER TYPE %s OWNER TO ${serviceRole}', t.oid::regtype)
      FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE t.typowner = '${superuser}'::regrole AND t.typtype IN ('e', 'd', 'r')
       AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')
  LOOP
    EXECUTE statement;
  END LOOP;
END
$$`;
