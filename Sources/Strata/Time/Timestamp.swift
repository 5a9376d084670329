import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ISO 8601 in UTC with milliseconds (`2026-11-29T12:00:00.000Z`): the calendar from
/// `gmtime_r(3)`, the digits written here. `ISO8601DateFormatter` costs more than the migration
/// it stamps.
func utcTimestamp(_ date: Date) -> String {
  let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
  // Whole seconds rounded down, so that a date before 1970 keeps its milliseconds positive.
  var seconds = time_t(milliseconds / 1000)
  var millis = milliseconds % 1000
  if millis < 0 {
    seconds -= 1
    millis += 1000
  }
  var parts = tm()
  gmtime_r(&seconds, &parts)
  func pad(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
  func pad(_ value: Int32) -> String { pad(Int64(value), 2) }
  return "\(pad(Int64(parts.tm_year) + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))"
    + "T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(pad(millis, 3))Z"
}

/// Whole milliseconds in a duration, for reports.
func milliseconds(_ duration: Duration) -> Int64 {
  let parts = duration.components
  return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
}

/// `utcTimestamp` without its dashes and colons (`20261129T120000.000Z`): for file names, which
/// then sort by time and hold no character a file system refuses.
func utcFileStamp(_ date: Date) -> String {
  utcTimestamp(date).filter { $0 != "-" && $0 != ":" }
}
