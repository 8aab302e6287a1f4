import fs from 'node:fs';
import { CommandError } from '../backups';
import { ConfigError, loadConfig, type Config } from '../config';
import { describeError } from '../lib/safe-error';

/**
 * Runs one of the data commands (backup, restore, upgrade:check, rollback) with the configuration the
 * server would read (.env beside package.json too) and files for the server's account only; prints
 * what it says, or why it could not, with its exit code (1, or 2 for "use PostgreSQL's own tools").
 */
export async function runCommand(command: (config: Config) => Promise<string>): Promise<void> {
  try {
    if (fs.existsSync('.env')) process.loadEnvFile('.env');
    process.umask(0o077);
    console.log(await command(loadConfig()));
  } catch (error) {
    if (error instanceof CommandError) {
      console.error(error.message);
      process.exit(error.exitCode);
    }
    console.error(error instanceof ConfigError ? error.message : describeError(error));
    process.exit(1);
  }
}
