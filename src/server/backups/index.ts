// The backups feature's public entry: backups of the embedded database, taken by the server or the commands.
export { backupRoutes } from './routes';
export { BACKUP_JOB, startAutomaticBackups } from './scheduler';
export { backupState, markServerRunning, runningServer, type BackupState } from './service';
export { backupCommand, CommandError, restoreCommand } from './commands';
export { pendingUpgrade, snapshotBeforeUpgrade, SnapshotError } from './before-upgrade';
export { rollbackCommand, upgradeCheckCommand } from './upgrade-commands';
