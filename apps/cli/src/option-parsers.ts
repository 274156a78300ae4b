import { InvalidArgumentError } from 'commander'

/** Commander argument parser for whole numbers ≥ 1 (a bad value is a usage error, exit 2). */
export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
    throw new InvalidArgumentError('expected a whole number of at least 1.')
  }
  return Number(value)
}
