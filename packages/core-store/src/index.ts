/**
 * @module
 */
export const PACKAGE_NAME = '@hymem/core-store'
