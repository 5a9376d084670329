#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error, written with `write(2)`.
///
/// Foundation's `FileHandle.write` traps on a failed write (a full disk, a closed descriptor,
/// a pipe whose reader left while SIGPIPE is ignored), with a backtrace and after the work was
/// done. Here the first failure is recorded, later writes are skipped, and the tool reports it
/// as an error once the command has finished. Where SIGPIPE keeps its default action, a closed
/// pipe ends the process as it ends other command-line tools.
final class OutputChannel {
  let descriptor: Int32
  /// `errno` of the first failed write; nil while every write succeeded.
  private(set) var failure: Int32?

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// True when the stream is a terminal, which a person reads: SQL is escaped there and
  /// written exactly anywhere else (`SQLOutput`).
  private(set) lazy var isTerminal = isatty(descriptor) == 1

  /// The standard stream on `descriptor`. A stream the process was started without (`>&-`)
  /// gets /dev/null in its place, so that no file strata opens later (a database) can take the
  /// number and receive the output, and counts as failed: its output would be lost.
  static func standard(_ descriptor: Int32) -> OutputChannel {
    let channel = OutputChannel(descriptor: descriptor)
    if fcntl(descriptor, F_GETFD) == -1, errno == EBADF {
      channel.failure = EBADF
      let placeholder = open("/dev/null", O_RDWR)
      if placeholder >= 0, placeholder != descriptor {
        _ = dup2(placeholder, descriptor)
        _ = close(placeholder)
      }
    }
    return channel
  }

  func write(_ text: String) {
    guard failure == nil, !text.isEmpty else { return }
    var bytes = Array(text.utf8)
    let count = bytes.count
    var offset = 0
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      while offset < count {
        let written = systemWrite(descriptor, base + offset, count - offset)
        if written > 0 {
          offset += written
        } else if written < 0, errno == EINTR {
          continue
        } else {
          failure = written < 0 ? errno : EIO
          return
        }
      }
    }
  }

  /// What went wrong, in the system's words: "No space left on device".
  var failureReason: String? {
    failure.map { String(cString: strerror($0)) }
  }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Darwin)
  Darwin.write(descriptor, bytes, count)
  #elseif canImport(Musl)
  Musl.write(descriptor, bytes, count)
  #else
  Glibc.write(descriptor, bytes, count)
  #endif
}
