export { createPrivateFile, ensurePrivateDirectory, PRIVATE_FILE_MODE } from './private-files'
