#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file's bytes, or nil when it cannot be opened or is not a regular file.
///
/// Plain POSIX reads: reading a thousand small migration files through `URL` and `Data`
/// costs more than `strata status` may take.
func readFile(atPath path: String) -> [UInt8]? {
  readFile(opening: { open(path, O_RDONLY | O_NONBLOCK) })
}

/// Reads many files of one folder, opening each relative to the folder (`openat`), which
/// spares the kernel a walk of the whole path per file.
/// Safe to share between threads: it only holds the folder's descriptor, which `openat`
/// may use from any thread.
final class DirectoryReader: @unchecked Sendable {
  private let descriptor: Int32

  /// Nil when the folder cannot be opened; `openError` says why.
  init?(_ path: String) {
    descriptor = open(path, O_RDONLY | O_DIRECTORY)
    guard descriptor >= 0 else { return nil }
  }

  /// Why the last `open` failed, for messages.
  static var openError: String { String(cString: strerror(errno)) }

  deinit {
    close(descriptor)
  }

  /// The bytes of the regular file `name` in the folder, or nil; without `followingLinks`, nil
  /// also when `name` is a symbolic link (`O_NOFOLLOW`).
  func read(_ name: String, followingLinks: Bool = true) -> [UInt8]? {
    let flags = O_RDONLY | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW)
    return readFile(opening: { openat(descriptor, name, flags) })
  }
}

/// The bytes of a regular file that is not a link and whose `stat` (of the file opened, so
/// the one read) `accepting` accepts; nil otherwise.
func readFile(atPath path: String, accepting: (stat) -> Bool) -> [UInt8]? {
  readFile(opening: { open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW) }, accepting: accepting)
}

/// Opens without blocking (`O_NONBLOCK`: a named pipe would wait for a writer forever), then
/// reads only a regular file; `O_NONBLOCK` changes nothing for one.
private func readFile(
  opening: () -> Int32,
  accepting: (stat) -> Bool = { _ in true }
) -> [UInt8]? {
  let descriptor = opening()
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var info = stat()
  guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, accepting(info)
  else { return nil }
  var bytes: [UInt8] = []
  // One read of the size fstat gives (plus one byte, to see the end); a file that grew while
  // being read takes further reads.
  var capacity = max(Int(info.st_size), 0) + 1
  while true {
    var got = 0
    let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
      got = read(descriptor, buffer.baseAddress, capacity)
      count = max(got, 0)
    }
    guard got >= 0 else { return nil }
    // A short read of a regular file is its end; the first read is nearly always all of it.
    if bytes.isEmpty, got < capacity { return chunk }
    bytes += chunk
    if got < capacity { return bytes }
    capacity = 65_536
  }
}
