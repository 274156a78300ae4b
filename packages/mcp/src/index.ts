/**
 * @module
 */
export const PACKAGE_NAME = '@hymem/mcp'
