import type { BackupRepository } from './backup'
import { backupReads } from './backup-reads'
import { backupWrites } from './backup-writes'
import type { RepositoryScope } from './scope'

export function createBackupRepository(scope: RepositoryScope): BackupRepository {
  return { ...backupReads(scope), ...backupWrites(scope) }
}
