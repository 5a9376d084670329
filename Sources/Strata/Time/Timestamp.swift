import Foundation

/// ISO 8601 in UTC with milliseconds (`2026-11-29T12:00:00.000Z`). Written by hand:
/// `ISO8601DateFormatter` costs more than the migration it stamps.
func utcTimestamp(_ date: Date) -> String {
  let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
  var seconds = milliseconds / 1000
  let millis = Int(milliseconds - seconds * 1000)
  var days = seconds / 86_400
  seconds -= days * 86_400
  if seconds < 0 {
    seconds += 86_400
    days -= 1
  }
  // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
  let z = days + 719_468
  let era = (z >= 0 ? z : z - 146_096) / 146_097
  let dayOfEra = z - era * 146_097
  let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
  let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
  let monthIndex = (5 * dayOfYear + 2) / 153
  let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
  let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
  let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  func pad(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
  return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
    + "\(pad(seconds % 3600 / 60, 2)):\(pad(seconds % 60, 2)).\(pad(Int64(millis), 3))Z"
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
