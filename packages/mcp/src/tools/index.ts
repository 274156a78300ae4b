import { captureTool, dreamTool, logTool } from './conversation'
import { aliasTool, forgetTool, rememberTool, restoreTool, retractTool, statsTool } from './curation'
import type { ToolDefinition } from './define-tool'
import { eraseTool } from './erase'
import { conflictsTool, historyTool } from './history'
import { notesTool, noteTool } from './notes'
import { augmentTool, profileTool, searchTool } from './recall'

/** Every tool but the usage guide, which is built from this list. */
export const CORE_TOOLS: readonly ToolDefinition[] = [
  captureTool,
  logTool,
  dreamTool,
  augmentTool,
  profileTool,
  aliasTool,
  retractTool,
  rememberTool,
  searchTool,
  forgetTool,
  restoreTool,
  notesTool,
  noteTool,
  eraseTool,
  historyTool,
  conflictsTool,
  statsTool,
] as unknown as readonly ToolDefinition[]
