/**
 * Splits text into pieces of at most `max` characters, preferring paragraph, then line, then word
 * boundaries in the second half of each piece. Never splits a surrogate pair.
 */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = []
  let rest = text
  while (rest.length > max) {
    let cut = -1
    for (const separator of ['\n\n', '\n', ' ']) {
      const at = rest.lastIndexOf(separator, max - separator.length)
      if (at >= max / 2) {
        cut = at + separator.length
        break
      }
    }
    if (cut < 0) cut = max
    const code = rest.charCodeAt(cut - 1)
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1
    pieces.push(rest.slice(0, cut))
    rest = rest.slice(cut)
  }
  if (rest.length > 0 || pieces.length === 0) pieces.push(rest)
  return pieces
}
