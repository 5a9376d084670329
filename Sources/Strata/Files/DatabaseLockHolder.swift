import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The other process holding SQLite's rollback-journal lock on a database file, named for an
/// error: "process 4242 (sqlite3)".
///
/// Read from the system's table of file locks (`/proc/locks`, Linux only), never by asking for
/// the lock: opening and closing the database file here would drop every POSIX lock this
/// process holds on it, its own connections' included. Nil elsewhere, when no other process
/// holds it (a connection of this app does), or when the table cannot be read.
func rollbackLockHolder(path: String) -> String? {
  #if os(Linux)
  var info = stat()
  guard stat(path, &info) == 0,
    let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
  else { return nil }
  let device = UInt64(info.st_dev)
  let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
  let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
  let file = String(format: "%02x:%02x:%lu", major, minor, UInt(info.st_ino))
  // SQLite's lock bytes start at 0x40000000 (PENDING, RESERVED, then 510 SHARED bytes).
  let lockBytes: ClosedRange<UInt64> = 0x4000_0000...0x4000_0000 + 511
  let own = getpid()
  for line in table.split(separator: "\n") {
    // "1: POSIX  ADVISORY  READ 4242 08:01:1234 1073741826 1073742335"
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard let at = fields.firstIndex(where: { $0 == "ADVISORY" || $0 == "MANDATORY" }),
      fields.count > at + 5, fields[at + 3] == file,
      let pid = Int32(fields[at + 2]), pid != own,
      let start = UInt64(fields[at + 4]), lockBytes.contains(start)
    else { continue }
    let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return "process \(pid)" + (name.map { " (\($0))" } ?? "")
  }
  return nil
  #else
  return nil
  #endif
}
