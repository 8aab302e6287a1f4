// npm run upgrade:check            what the next start would do to the database: tried, then undone
// npm run rollback -- [SNAPSHOT]   the database as it was before the last upgrade, the server stopped
import { CommandError, rollbackCommand, upgradeCheckCommand } from '../backups';
import { runCommand } from './run';

const [command, snapshot] = process.argv.slice(2);
await runCommand(async (config) => {
  if (command === 'check') return upgradeCheckCommand(config);
  if (command === 'rollback') return rollbackCommand(config, snapshot);
  throw new CommandError('Use: npm run upgrade:check, or npm run rollback -- [SNAPSHOT]');
});
