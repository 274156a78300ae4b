/** Minimal ANSI styling; every function is the identity when colours are off. */
export interface Style {
  bold(text: string): string
  dim(text: string): string
  green(text: string): string
  yellow(text: string): string
  red(text: string): string
  cyan(text: string): string
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`
const identity = (text: string) => text

export function createStyle(enabled: boolean): Style {
  if (!enabled) {
    return { bold: identity, dim: identity, green: identity, yellow: identity, red: identity, cyan: identity }
  }
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    red: wrap(31, 39),
    cyan: wrap(36, 39),
  }
}
