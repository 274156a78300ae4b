export type { LoosePermission } from './loose-permissions'
export { findLoosePermissions } from './loose-permissions'
export { createPrivateFile, ensurePrivateDirectory, PRIVATE_FILE_MODE } from './private-files'
