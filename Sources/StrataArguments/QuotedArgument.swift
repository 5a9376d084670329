/// `text` in single quotes for a message, with control characters (line breaks, escape
/// sequences, C1 codes, Unicode line separators and bidirectional controls) written as
/// `\u{1B}`: an argument is the user's text, and echoing it raw could break the message's
/// line, reorder what the terminal shows, or drive the terminal.
public func quotedArgument(_ text: String) -> String {
  "'" + escapingControls(text) + "'"
}

/// `text` with every hidden control written as `\u{1B}`: the one rule for anything strata
/// shows a person (file names, paths, values, whole error messages), so that no name can add a
/// line, recolour the terminal or reorder what it shows.
///
/// - Parameter keepingTabs: leave horizontal tabs as they are: they only move the cursor
///   forward, and SQL shown in a dry run uses them for layout. An argument in quotes keeps
///   them escaped, so that what was typed is visible.
public func escapingControls(_ text: String, keepingTabs: Bool = false) -> String {
  // Printable ASCII, most of what is shown, checked over its bytes in place.
  let printable = text.utf8.withContiguousStorageIfAvailable { bytes in
    bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
  }
  if printable == true { return text }
  guard text.unicodeScalars.contains(where: isHiddenControl) else { return text }
  var shown = ""
  for scalar in text.unicodeScalars {
    if isHiddenControl(scalar), !(keepingTabs && scalar == "\t") {
      shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    } else {
      shown.unicodeScalars.append(scalar)
    }
  }
  return shown
}

/// Scalars a terminal acts on or hides instead of showing: C0, DEL, C1, U+2028/U+2029, and the
/// bidirectional marks, embeddings, overrides and isolates.
public func isHiddenControl(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E,
    0x2066...0x2069:
    true
  default:
    false
  }
}
