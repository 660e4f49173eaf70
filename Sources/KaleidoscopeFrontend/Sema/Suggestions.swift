/// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo
/// (at most a third of the word's length, and at least one edit).
func closestMatch(to word: String, among candidates: [String]) -> String? {
  let limit = max(1, word.utf8.count / 3)
  var best: (String, Int)?
  for candidate in candidates where candidate != word {
    let distance = editDistance(Array(word.utf8), Array(candidate.utf8))
    if distance <= limit, distance < (best?.1 ?? .max) {
      best = (candidate, distance)
    }
  }
  return best?.0
}

/// Levenshtein distance between two byte strings.
func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
