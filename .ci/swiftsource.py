"""What the index store cannot tell about a Swift file, read from its text:

- which lines each platform compiles (`#if canImport(Darwin)` / `#if os(iOS)` / `#else`...): a
  Linux build indexes only its own branches, so Apple-only branches are invisible to it, and a
  Linux-only branch is no use of an Apple API;
- which lines run under a raised floor (`if #available(iOS 18, *) {`, `guard #available`,
  `@available(iOS 18, *)` on a declaration), where a newer API is allowed.

This is a reader of directives and braces, not a Swift parser: it skips comments and string
literals, which is enough for the code this package writes.
"""

import bisect
import re

LINUX = "Linux"
APPLE = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")

# canImport(M) on each platform; a module in neither set is unknown (None): either branch
# may be compiled there, so neither counts as Linux-only or Apple-only.
_IMPORTABLE = {
    LINUX: set("Glibc Foundation FoundationEssentials FoundationNetworking FoundationXML Dispatch"
               " Synchronization".split()),
    "Apple": set("Darwin Foundation Dispatch ObjectiveC SQLite3 os OSLog Combine Security"
                 " CoreFoundation Synchronization".split()),
}
_NOT_IMPORTABLE = {
    LINUX: set("Darwin ObjectiveC SQLite3 os OSLog Combine Security UIKit AppKit WatchKit SwiftUI"
               " XcodeProjectPlugin Musl Android Bionic WinSDK WASILibc".split()),
    "Apple": set("Glibc Musl Android Bionic WinSDK WASILibc".split()),
}
_UI_FRAMEWORKS = {"UIKit": {"iOS", "tvOS", "visionOS"}, "AppKit": {"macOS"}, "WatchKit": {"watchOS"}}

_DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")
_TOKEN = re.compile(r"\s*(&&|\|\||!|\(|\)|[A-Za-z_$][\w$]*)")


def _evaluate(condition, platform):
    """True, False or None (unknown) for a `#if` condition on `platform`, in Kleene logic."""
    tokens, position = [], 0
    while position < len(condition):
        match = _TOKEN.match(condition, position)
        if not match:
            break
        if match.group(1) == "(" and tokens and tokens[-1][0] == "name":
            depth, end = 1, match.end()
            while end < len(condition) and depth:
                depth += {"(": 1, ")": -1}.get(condition[end], 0)
                end += 1
            tokens[-1] = ("call", tokens[-1][1], condition[match.end() : end - 1].strip())
            position = end
            continue
        text = match.group(1)
        tokens.append(("name", text) if re.match(r"[A-Za-z_$]", text) else ("op", text))
        position = match.end()
    value, _ = _parse_or(tokens, 0, platform)
    return value


def _parse_or(tokens, i, platform):
    value, i = _parse_and(tokens, i, platform)
    while i < len(tokens) and tokens[i] == ("op", "||"):
        right, i = _parse_and(tokens, i + 1, platform)
        value = _or(value, right)
    return value, i


def _parse_and(tokens, i, platform):
    value, i = _parse_unary(tokens, i, platform)
    while i < len(tokens) and tokens[i] == ("op", "&&"):
        right, i = _parse_unary(tokens, i + 1, platform)
        value = _and(value, right)
    return value, i


def _parse_unary(tokens, i, platform):
    if i >= len(tokens):
        return None, i
    token = tokens[i]
    if token == ("op", "!"):
        value, i = _parse_unary(tokens, i + 1, platform)
        return (None if value is None else not value), i
    if token == ("op", "("):
        value, i = _parse_or(tokens, i + 1, platform)
        return value, i + 1  # the ")"
    if token[0] == "call":
        return _evaluate_call(token[1], token[2], platform), i + 1
    return {"true": True, "false": False}.get(token[1]), i + 1  # a -D flag: unknown


def _evaluate_call(name, argument, platform):
    apple = platform != LINUX
    if name == "os":
        return argument == platform
    if name == "canImport":
        module = argument.split(",")[0].strip()
        if apple and module in _UI_FRAMEWORKS:
            return platform in _UI_FRAMEWORKS[module]
        family = "Apple" if apple else LINUX
        if module in _IMPORTABLE[family]:
            return True
        return False if module in _NOT_IMPORTABLE[family] else None
    if name == "targetEnvironment" or name == "_runtime":
        return None if apple else False
    return None  # arch, compiler, swift, hasFeature...: the same on both sides, or unknown


def branch_platforms(text):
    """For each line (1-based; index 0 unused): {platform: True/False/None}, whether that
    platform compiles the line. Directive lines themselves count as compiled everywhere."""
    platforms = (LINUX,) + APPLE
    everywhere = {platform: True for platform in platforms}
    result = [everywhere]
    # A frame per open #if: the active value of its current branch, and whether an earlier
    # branch was taken (True/False/None), per platform.
    stack = []
    for line in code_only(text).split("\n"):
        match = _DIRECTIVE.match(line)
        if match:
            keyword, condition = match.group(1), match.group(2)
            if keyword == "if":
                values = {p: _evaluate(condition, p) for p in platforms}
                stack.append({"active": values, "taken": dict(values)})
            elif stack and keyword in ("elseif", "else"):
                frame = stack[-1]
                for p in platforms:
                    value = _evaluate(condition, p) if keyword == "elseif" else True
                    taken = frame["taken"][p]
                    not_taken = None if taken is None else not taken
                    frame["active"][p] = _and(not_taken, value)
                    frame["taken"][p] = _or(taken, value)
            elif stack and keyword == "endif":
                stack.pop()
            result.append(everywhere)
            continue
        state = {}
        for p in platforms:
            value = True
            for frame in stack:
                value = _and(value, frame["active"][p])
            state[p] = value
        result.append(state)
    return result


def _and(a, b):
    return False if False in (a, b) else (None if None in (a, b) else True)


def _or(a, b):
    return True if True in (a, b) else (None if None in (a, b) else False)


def apple_only(state):
    """Compiled on some Apple platform, never on Linux: the Linux index cannot see it."""
    return state[LINUX] is False and any(state[p] is not False for p in APPLE)


def linux_only(state):
    """Compiled on Linux, on no Apple platform: no Apple use of anything."""
    return state[LINUX] is not False and all(state[p] is False for p in APPLE)


def line_ranges(lines):
    """[3, 4, 5, 9] -> [(3, 5), (9, 9)]"""
    ranges = []
    for line in sorted(lines):
        if ranges and line == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], line)
        else:
            ranges.append((line, line))
    return ranges


# --- Availability scopes -------------------------------------------------------------------

_AVAILABILITY = re.compile(r"(#available|@available)\s*\(")
_PLATFORM_VERSION = re.compile(r"\b(macOS|iOS|tvOS|watchOS|visionOS)\s+(\d+(?:\.\d+)*)")
_INTRODUCED = re.compile(
    r"^\s*(macOS|iOS|tvOS|watchOS|visionOS)\s*,.*\bintroduced\s*:\s*(\d+(?:\.\d+)*)", re.S
)


_COMMENT_OR_STRING = re.compile(r'//|/\*|"')


def code_only(text):
    """The text with comments and string literals blanked (newlines kept, so line numbers
    hold), so that directives, braces and API names are found in code only."""
    out, n = list(text), len(text)
    match = _COMMENT_OR_STRING.search(text)
    while match:
        i = match.start()
        if match.group() == "//":
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif match.group() == "/*":  # nested, as Swift's are
            depth, end = 1, i + 2
            while end < n and depth:
                step = text[end : end + 2]
                depth += 1 if step == "/*" else -1 if step == "*/" else 0
                end += 2 if step in ("/*", "*/") else 1
        else:
            quote = '"""' if text.startswith('"""', i) else '"'
            end = i + len(quote)
            while end < n and not text.startswith(quote, end):
                end += 2 if text[end] == "\\" else 1
            end = min(n, end + len(quote))
        for j in range(i, end):
            if out[j] != "\n":
                out[j] = " "
        match = _COMMENT_OR_STRING.search(text, end)
    return "".join(out)


def _version(text):
    """ "18" -> (18, 0): comparable with the symbol graphs' versions."""
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (2 - len(parts)))


def availability_scopes(text):
    """[(first line, last line, {platform: version})]: where code may use APIs up to those
    versions, from `if #available(...) {`, `guard #available(...)` (to the end of the
    enclosing block) and `@available(iOS 18, *)` on a declaration (its body)."""
    code = code_only(text)
    newlines = [i for i, c in enumerate(code) if c == "\n"]
    line_of = lambda offset: bisect.bisect_left(newlines, offset) + 1
    closing, opens, stack = {}, [], []
    for i, c in enumerate(code):
        if c == "{":
            stack.append(i)
        elif c == "}" and stack:
            start = stack.pop()
            closing[start] = i
            opens.append(start)
    opens.sort()
    scopes = []
    for match in _AVAILABILITY.finditer(code):
        depth, end = 1, match.end()
        while end < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            end += 1
        arguments = code[match.end() : end - 1]
        versions = {p: _version(v) for p, v in _PLATFORM_VERSION.findall(arguments)}
        introduced = _INTRODUCED.match(arguments)
        if introduced:
            versions[introduced.group(1)] = _version(introduced.group(2))
        if not versions:
            continue  # `@available(*, unavailable)`, `deprecated`...: no floor raised
        statement = code[code.rfind("\n", 0, match.start()) + 1 : match.start()]
        if match.group(1) == "#available" and re.search(r"\bguard\b", statement):
            enclosing = [o for o in opens if o < match.start() < closing[o]]
            last = closing[max(enclosing)] if enclosing else len(code)
        else:
            following = [o for o in opens if o > end]
            if not following:
                continue
            last = closing[following[0]]
        scopes.append((line_of(match.start()), line_of(last), versions))
    return scopes
