import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod'
import type { ToolContext } from './tool-context'

/** One MCP tool: its public contract (name, description, input shape) and its handler. */
export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string
  readonly title: string
  /** What an agent reads to decide when and how to call the tool. */
  readonly description: string
  readonly inputSchema: Shape
  /** Tools that only read are marked so clients can call them without confirmation. */
  readonly readOnly: boolean
  /** Writes new material for dreaming: a success asks for a background dream (when the server dreams). */
  readonly schedulesDream?: boolean
  handle(args: z.infer<z.ZodObject<Shape>>, context: ToolContext): Promise<CallToolResult>
}

export function defineTool<Shape extends z.ZodRawShape>(
  definition: ToolDefinition<Shape>,
): ToolDefinition<Shape> {
  return definition
}
