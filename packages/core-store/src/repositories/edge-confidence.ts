/** Laplace-smoothed confidence of an edge, `(pos + 1) / (pos + neg + 2)`. */
export function edgeConfidence(pos: number, neg: number): number {
  return (pos + 1) / (pos + neg + 2)
}
