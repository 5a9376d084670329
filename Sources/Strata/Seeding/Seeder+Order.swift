import Foundation

// The order files load in: parents before children.
extension Seeder {
  /// Indexes of `items` with each table after the tables it references (Kahn's algorithm,
  /// keeping the given order among equals). Tables in a cycle keep their given order; deferred
  /// foreign keys let them load.
  static func parentsFirst(_ items: [(file: SeedFile, table: Table)]) -> [Int] {
    let names = items.map { folded($0.table.name) }
    let parents = items.enumerated().map { offset, item in
      Set(item.table.foreignKeys.map { folded($0.parent) }).subtracting([names[offset]])
    }
    var placed = Array(repeating: false, count: items.count)
    var order: [Int] = []
    /// Whether `start` reaches itself through files not yet placed.
    func inCycle(_ start: Int) -> Bool {
      var stack = [start]
      var seen = Set<Int>()
      while let current = stack.popLast() {
        for other in items.indices
        where !placed[other] && parents[current].contains(names[other]) && other != current {
          if other == start { return true }
          if seen.insert(other).inserted { stack.append(other) }
        }
      }
      return false
    }
    while order.count < items.count {
      let ready = items.indices.first { index in
        !placed[index]
          && items.indices.allSatisfy { other in
            placed[other] || other == index || !parents[index].contains(names[other])
          }
      }
      // Stuck: break a cycle at its first file (a file merely waiting on a cycle waits on).
      let next =
        ready ?? items.indices.first { !placed[$0] && inCycle($0) }
        ?? items.indices.first { !placed[$0] } ?? 0
      placed[next] = true
      order.append(next)
    }
    return order
  }
}
