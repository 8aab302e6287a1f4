// npm run backup -- FILE    write a backup of the embedded database (DATA_DIR) to FILE, the server stopped
// npm run restore -- FILE   restore FILE into DATA_DIR, the server stopped (the old data kept aside)
import { backupCommand, CommandError, restoreCommand } from '../backups';
import { runCommand } from './run';

const [command, file] = process.argv.slice(2);
await runCommand(async (config) => {
  if (command === 'backup') return backupCommand(config, file);
  if (command === 'restore') return restoreCommand(config, file);
  throw new CommandError('Use: npm run backup -- FILE, or npm run restore -- FILE');
});
