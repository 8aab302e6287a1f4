// npm run backup -- FILE    write a backup of the embedded database (DATA_DIR) to FILE, the server stopped
// npm run restore -- FILE   restore FILE into DATA_DIR, the server stopped (the old data kept aside)
import fs from 'node:fs';
import { ConfigError, loadConfig } from '../config';
import { backupCommand, CommandError, restoreCommand } from '../backups';
import { describeError } from '../lib/safe-error';

async function main() {
  const [command, file] = process.argv.slice(2);
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  process.umask(0o077);
  const config = loadConfig();
  if (command === 'backup') console.log(await backupCommand(config, file));
  else if (command === 'restore') console.log(await restoreCommand(config, file));
  else throw new CommandError('Use: npm run backup -- FILE, or npm run restore -- FILE');
}

await main().catch((error: unknown) => {
  if (error instanceof CommandError) {
    console.error(error.message);
    process.exit(error.exitCode);
  }
  console.error(error instanceof ConfigError ? error.message : describeError(error));
  process.exit(1);
});
