/// The lexical rules of SQLite's tokenizer that more than one reader needs: which bytes are
/// white space, where a comment or a quoted string or identifier ends, which bytes make a word.
/// The script splitter (`Connection.executeScript`, `containsSQL`) and `SQLTokenizer` both scan
/// with these, so they cannot disagree on what is a comment. Byte-level on UTF-8, with no
/// allocation, because the splitter walks migration files of hundreds of megabytes.
enum SQLScanner {
  /// SQLite's white space: space, tab, line feed, form feed, carriage return.
  @inline(__always)
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
  }

  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// A byte that can start a bare word: an ASCII letter, `_`, or any byte of a non-ASCII
  /// character.
  @inline(__always)
  static func isWordStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
  }

  /// A byte that can continue a bare word: a word start, a digit or `$`.
  @inline(__always)
  static func isWordByte(_ byte: UInt8) -> Bool {
    isWordStart(byte) || isDigit(byte) || byte == UInt8(ascii: "$")
  }

  /// The offset just past the comment that starts at `i` (`-- …` to the end of its line, or
  /// `/* … */`, which an end of text also closes); nil when no comment starts at `i`.
  @inline(__always)
  static func commentEnd(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Int? {
    guard i + 1 < end else { return nil }
    let byte = bytes[i]
    if byte == UInt8(ascii: "-"), bytes[i + 1] == UInt8(ascii: "-") {
      var j = i + 2
      while j < end, bytes[j] != 0x0A { j += 1 }
      return j
    }
    if byte == UInt8(ascii: "/"), bytes[i + 1] == UInt8(ascii: "*") {
      var j = i + 2
      while j + 1 < end, !(bytes[j] == UInt8(ascii: "*") && bytes[j + 1] == UInt8(ascii: "/")) {
        j += 1
      }
      return min(end, j + 2)
    }
    return nil
  }

  /// The offset of the first byte at or after `from` that is neither white space nor part of a
  /// comment; with `semicolons`, empty statements' `;` are skipped too.
  static func skipTrivia(
    _ bytes: UnsafeBufferPointer<UInt8>,
    from: Int,
    end: Int,
    semicolons: Bool = false
  ) -> Int {
    var i = from
    while i < end {
      let byte = bytes[i]
      if isSpace(byte) || (semicolons && byte == UInt8(ascii: ";")) {
        i += 1
      } else if let next = commentEnd(bytes, at: i, end: end) {
        i = next
      } else {
        break
      }
    }
    return i
  }

  /// The offset just past the `quote` that closes a quoted string or identifier whose text
  /// starts at `from` (just after the opening quote), or `end` when it is never closed. With
  /// `doubled`, two quotes in a row stand for one and do not close it (`'it''s'`; not `[…]`).
  static func quotedEnd(
    _ bytes: UnsafeBufferPointer<UInt8>,
    quote: UInt8,
    doubled: Bool,
    from: Int,
    end: Int
  ) -> Int {
    var i = from
    while i < end {
      if bytes[i] == quote {
        if doubled, i + 1 < end, bytes[i + 1] == quote {
          i += 2
          continue
        }
        return i + 1
      }
      i += 1
    }
    return end
  }
}
