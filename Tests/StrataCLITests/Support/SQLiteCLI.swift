import Foundation
import Strata

/// Reads a database file the way a user checks it: with a fresh connection.
enum DatabaseProbe {
  static func rows(_ url: URL, _ sql: String) throws -> [[SQLValue]] {
    try Connection(path: url.path, mode: .readOnly).rows(sql)
  }

  static func integer(_ url: URL, _ sql: String) throws -> Int64? {
    try Connection(path: url.path, mode: .readOnly).scalar(sql)?.integerValue
  }

  static func tables(_ url: URL) throws -> [String] {
    try rows(url, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .compactMap { $0.first?.textValue }
  }
}
