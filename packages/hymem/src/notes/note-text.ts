/** The text embedded for a note: what de-duplication and search compare. */
export function noteText(description: string, content: string): string {
  return `${description}\n${content}`
}

/** Case, width and whitespace folded, trailing punctuation dropped: "the same content" without embeddings. */
export function normaliseContent(content: string): string {
  return content
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.!?;:,]+$/u, '')
    .trim()
}
