/**
 * @module
 */
export const PACKAGE_NAME = '@hymem/honcho-http'
