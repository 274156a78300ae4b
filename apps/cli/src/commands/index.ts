import type { CommandRegistrar } from '../program'
import { registerAugment } from './augment'
import { registerCapture } from './capture'
import { registerDemo } from './demo'
import { registerDoctor } from './doctor'
import { registerDream } from './dream'
import { registerMcp } from './mcp'
import { registerReindex } from './reindex'
import { registerStats } from './stats'
import { registerTransfer } from './transfer'

/** Every command of the `hymem` program, in help order. */
export const ALL_COMMANDS: readonly CommandRegistrar[] = [
  registerDemo,
  registerDoctor,
  registerCapture,
  registerDream,
  registerAugment,
  registerStats,
  registerTransfer,
  registerReindex,
  registerMcp,
]
