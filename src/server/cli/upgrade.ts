// npm run upgrade:check            what the next start would do to the database: tried, then undone
// npm run rollback -- [SNAPSHOT]   the database as it was before the last upgrade, the server stopped
import fs from 'node:fs';
import { ConfigError, loadConfig } from '../config';
import { CommandError, rollbackCommand, upgradeCheckCommand } from '../backups';
import { describeError } from '../lib/safe-error';

async function main() {
  const [command, snapshot] = process.argv.slice(2);
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  process.umask(0o077);
  const config = loadConfig();
  if (command === 'check') console.log(await upgradeCheckCommand(config));
  else if (command === 'rollback') console.log(await rollbackCommand(config, snapshot));
  else throw new CommandError('Use: npm run upgrade:check, or npm run rollback -- [SNAPSHOT]');
}

await main().catch((error: unknown) => {
  if (error instanceof CommandError) {
    console.error(error.message);
    process.exit(error.exitCode);
  }
  console.error(error instanceof ConfigError ? error.message : describeError(error));
  process.exit(1);
});
