"""The toolchain's own symbol graphs (swift-symbolgraph-extract), reduced to what the checks
need: each public symbol's USR (the graph's `identifier.precise`, which is the index store's
USR), its qualified name, and its Apple availability per platform.

Extraction takes about 5 s and parsing the 90 MB of JSON about 3 s more, so the reduced
table is cached, keyed by the toolchain's version and the module list.
"""

import hashlib
import json
import os
import platform
import shutil
import subprocess
import tempfile

# What the package's Swift code can import from the toolchain. Foundation on Linux
# (swift-corelibs-foundation) carries little availability; FoundationEssentials and
# FoundationInternationalization (swift-foundation) carry Apple's.
MODULES = (
    "Swift",
    "_Concurrency",
    "_StringProcessing",
    "RegexBuilder",
    "Synchronization",
    "Observation",
    "Distributed",
    "Dispatch",
    "FoundationEssentials",
    "FoundationInternationalization",
    "Foundation",
    "FoundationNetworking",
    "FoundationXML",
)
# Without these the table would be nearly empty and every check would pass: their failure
# stops the check. The others may be missing from a toolchain.
REQUIRED = {"Swift", "_Concurrency", "FoundationEssentials", "Foundation"}
TARGET = f"{platform.machine()}-unknown-linux-gnu"
CACHE_FORMAT = 1


def _toolchain_key():
    version = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout
    extractor = shutil.which("swift-symbolgraph-extract") or ""
    key = f"{CACHE_FORMAT}\n{version}\n{os.path.realpath(extractor)}\n{','.join(MODULES)}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def load(cache_dir=None, log=print):
    """{usr: (qualified name, {platform: {"introduced": [15, 0], ...}})}, from the cache in
    `cache_dir` when it was made by this toolchain."""
    cache = os.path.join(cache_dir, f"symbols-{_toolchain_key()}.json") if cache_dir else None
    if cache and os.path.exists(cache):
        with open(cache, encoding="utf-8") as file:
            return {
                usr: (name, availability) for usr, (name, availability) in json.load(file).items()
            }
    with tempfile.TemporaryDirectory(prefix="symbolgraphs-") as directory:
        failed = _extract(directory)
        if REQUIRED & set(failed):
            raise RuntimeError(f"swift-symbolgraph-extract failed for {', '.join(failed)}")
        if failed:
            log(f"note: no symbol graph for {', '.join(failed)} (not in this toolchain)")
        table = _reduce(directory)
    if cache:
        os.makedirs(cache_dir, exist_ok=True)
        # Written whole, then renamed: a check that runs meanwhile never reads half a file.
        descriptor, partial = tempfile.mkstemp(dir=cache_dir, suffix=".partial")
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(table, file)
        os.chmod(partial, 0o644)
        os.replace(partial, cache)
    return table


def _extract(directory):
    """Runs the extractor for every module, two at a time (the machine's cores)."""
    running, failed = [], []
    for module in MODULES:
        output = os.path.join(directory, module)
        os.makedirs(output)
        command = ["swift-symbolgraph-extract", "-module-name", module, "-target", TARGET,
                   "-output-dir", output, "-minimum-access-level", "public"]
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        running.append((module, subprocess.Popen(command, **quiet)))
        if len(running) >= 2:
            name, process = running.pop(0)
            if process.wait() != 0:
                failed.append(name)
    for name, process in running:
        if process.wait() != 0:
            failed.append(name)
    return failed


def _version(value):
    return [value.get("major", 0), value.get("minor", 0), value.get("patch", 0)][
        : 3 if value.get("patch") else 2
    ]


def _availability(symbol):
    """{platform: {"introduced": [...], "obsoleted": [...], "unavailable": True}} for the
    platforms the symbol names (the graph already folds in its enclosing type's and
    extension's availability)."""
    result = {}
    for entry in symbol.get("availability", []):
        domain = entry.get("domain")
        if not domain or domain in ("*", "Swift", "SwiftPM"):
            continue
        platform = {}
        if "introduced" in entry:
            platform["introduced"] = _version(entry["introduced"])
        if "obsoleted" in entry:
            platform["obsoleted"] = _version(entry["obsoleted"])
        if entry.get("isUnconditionallyUnavailable"):
            platform["unavailable"] = True
        if platform:
            result[domain] = platform
    return result


def _reduce(directory):
    table, default_of = {}, {}
    for folder, _subfolders, files in os.walk(directory):
        for name in sorted(files):
            with open(os.path.join(folder, name), encoding="utf-8") as file:
                graph = json.load(file)
            for symbol in graph["symbols"]:
                usr = symbol["identifier"]["precise"]
                # A member a conforming type inherits from a protocol extension: no symbol
                # of its own in the index store, which names the extension's member.
                if "::SYNTHESIZED::" in usr or usr in table and table[usr][1]:
                    continue
                table[usr] = (".".join(symbol["pathComponents"]), _availability(symbol))
            for relation in graph["relationships"]:
                if relation["kind"] == "defaultImplementationOf":
                    default_of.setdefault(relation["target"], []).append(relation["source"])
    # A protocol requirement added later with a default implementation (FixedWidthInteger.&*):
    # a call on a type that has long had the operation names the requirement, yet runs the
    # default or the type's own witness. Such a call needs only what its best default needs.
    for requirement, defaults in default_of.items():
        if requirement not in table or "::SYNTHESIZED::" in requirement:
            continue
        name, availability = table[requirement]
        for default in defaults:
            if default not in table:
                continue
            default_availability = table[default][1]
            availability = {
                platform: entry
                for platform, entry in availability.items()
                if platform in default_availability
                and _earlier(default_availability[platform], entry) is False
            }
        table[requirement] = (name, availability)
    return table


def _earlier(default, requirement):
    """False when the default needs at least what the requirement needs (keep the
    requirement's constraint), True when the default is available earlier."""
    if requirement.get("unavailable") and not default.get("unavailable"):
        return True
    return default.get("introduced", [0]) < requirement.get("introduced", [0])
