"""Reads a Swift build's index store, through the toolchain's own libIndexStore (ctypes), and
the package facts that .ci/availability-check and .ci/privacy-manifest-check share: the
platform floors of Package.swift, and which index units belong to the targets that ship.

The C API is the one of <indexstore/indexstore.h>: a store has units (one a compiled object
file), a unit depends on records (one a source file), a record has occurrences (a symbol's
USR, its roles, a line and column). Only the `*_apply_f` functions are used: ctypes can pass
a C function pointer, not a block.
"""

import ctypes
import os
import platform
import re
import shutil
from dataclasses import dataclass, field

# Roles (indexstore_symbol_role_t).
ROLE_REFERENCE = 1 << 2
ROLE_IMPLICIT = 1 << 8
# The record dependency kind (indexstore_unit_dependency_kind_t).
DEPENDENCY_RECORD = 2


class IndexStoreError(Exception):
    pass


class _StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def text(self):
        return ctypes.string_at(self.data, self.length).decode() if self.length else ""


_P = ctypes.c_void_p
_UNIT_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, _P, _StringRef)
_POINTER_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, _P, _P)

# name: (result type, argument types)
_SIGNATURES = {
    "indexstore_store_create": (_P, [ctypes.c_char_p, ctypes.POINTER(_P)]),
    "indexstore_store_dispose": (None, [_P]),
    "indexstore_error_get_description": (ctypes.c_char_p, [_P]),
    "indexstore_store_units_apply_f": (ctypes.c_bool, [_P, ctypes.c_uint, _P, _UNIT_APPLIER]),
    "indexstore_unit_reader_create": (_P, [_P, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "indexstore_unit_reader_dispose": (None, [_P]),
    "indexstore_unit_reader_get_main_file": (_StringRef, [_P]),
    "indexstore_unit_reader_get_module_name": (_StringRef, [_P]),
    "indexstore_unit_reader_is_system_unit": (ctypes.c_bool, [_P]),
    "indexstore_unit_reader_get_modification_time": (
        None,
        [_P, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)],
    ),
    "indexstore_unit_reader_dependencies_apply_f": (ctypes.c_bool, [_P, _P, _POINTER_APPLIER]),
    "indexstore_unit_dependency_get_kind": (ctypes.c_int, [_P]),
    "indexstore_unit_dependency_get_name": (_StringRef, [_P]),
    "indexstore_unit_dependency_get_filepath": (_StringRef, [_P]),
    "indexstore_record_reader_create": (_P, [_P, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "indexstore_record_reader_dispose": (None, [_P]),
    "indexstore_record_reader_occurrences_apply_f": (ctypes.c_bool, [_P, _P, _POINTER_APPLIER]),
    "indexstore_occurrence_get_symbol": (_P, [_P]),
    "indexstore_occurrence_get_roles": (ctypes.c_uint64, [_P]),
    "indexstore_occurrence_get_line_col": (
        None,
        [_P, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)],
    ),
    "indexstore_symbol_get_usr": (_StringRef, [_P]),
    "indexstore_symbol_get_name": (_StringRef, [_P]),
}


def store_in(build_folder):
    """The debug index store SwiftPM writes in a build folder (.build or a --scratch-path)."""
    return os.path.join(
        build_folder, f"{platform.machine()}-unknown-linux-gnu", "debug", "index", "store"
    )


def find_library():
    """libIndexStore.so beside the `swift` on PATH (the toolchain that built the store)."""
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    candidate = os.path.join(
        os.path.dirname(os.path.realpath(swift)), "..", "lib", "libIndexStore.so"
    )
    return os.path.normpath(candidate)


@dataclass
class Unit:
    name: str
    main_file: str
    module: str
    mtime: float
    records: list  # [(record name, source path)]


@dataclass
class Occurrence:
    path: str
    line: int
    column: int
    usr: str
    name: str
    roles: int

    @property
    def is_explicit_reference(self):
        """Written in the source: not a declaration, not what the compiler inferred."""
        return bool(self.roles & ROLE_REFERENCE) and not self.roles & ROLE_IMPLICIT


class IndexStore:
    def __init__(self, path, library=None):
        if not os.path.isdir(os.path.join(path, "v5", "units")):
            raise IndexStoreError(f"no index store at {path}: run `swift build` (debug) first")
        self.lib = ctypes.CDLL(library or find_library())
        for name, (result, arguments) in _SIGNATURES.items():
            function = getattr(self.lib, name)
            function.restype, function.argtypes = result, arguments
        error = _P()
        self.store = self.lib.indexstore_store_create(path.encode(), ctypes.byref(error))
        self._check(self.store, error, path)

    def _check(self, handle, error, what):
        if not handle:
            message = self.lib.indexstore_error_get_description(error) if error else b"?"
            raise IndexStoreError(f"{what}: {message.decode()}")

    def unit_names(self):
        names = []
        applier = _UNIT_APPLIER(lambda _context, name: names.append(name.text()) or True)
        self.lib.indexstore_store_units_apply_f(self.store, 0, None, applier)
        return names

    def unit(self, name):
        lib, error = self.lib, _P()
        reader = lib.indexstore_unit_reader_create(self.store, name.encode(), ctypes.byref(error))
        self._check(reader, error, f"unit {name}")
        try:
            if lib.indexstore_unit_reader_is_system_unit(reader):
                return None
            seconds, nanoseconds = ctypes.c_int64(), ctypes.c_int64()
            lib.indexstore_unit_reader_get_modification_time(
                reader, ctypes.byref(seconds), ctypes.byref(nanoseconds)
            )
            records = []

            def add(_context, dependency):
                if lib.indexstore_unit_dependency_get_kind(dependency) == DEPENDENCY_RECORD:
                    records.append(
                        (
                            lib.indexstore_unit_dependency_get_name(dependency).text(),
                            lib.indexstore_unit_dependency_get_filepath(dependency).text(),
                        )
                    )
                return True

            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, _POINTER_APPLIER(add))
            return Unit(
                name,
                lib.indexstore_unit_reader_get_main_file(reader).text(),
                lib.indexstore_unit_reader_get_module_name(reader).text(),
                seconds.value + nanoseconds.value / 1e9,
                records,
            )
        finally:
            lib.indexstore_unit_reader_dispose(reader)

    def occurrences(self, record, path):
        """Every occurrence of one record (a source file); symbols are resolved once each."""
        lib, error = self.lib, _P()
        reader = lib.indexstore_record_reader_create(
            self.store, record.encode(), ctypes.byref(error)
        )
        self._check(reader, error, f"record {record}")
        found, symbols = [], {}
        line, column = ctypes.c_uint(), ctypes.c_uint()

        def add(_context, occurrence):
            symbol = lib.indexstore_occurrence_get_symbol(occurrence)
            if symbol not in symbols:
                symbols[symbol] = (
                    lib.indexstore_symbol_get_usr(symbol).text(),
                    lib.indexstore_symbol_get_name(symbol).text(),
                )
            usr, name = symbols[symbol]
            lib.indexstore_occurrence_get_line_col(
                occurrence, ctypes.byref(line), ctypes.byref(column)
            )
            found.append(
                Occurrence(
                    path,
                    line.value,
                    column.value,
                    usr,
                    name,
                    lib.indexstore_occurrence_get_roles(occurrence),
                )
            )
            return True

        try:
            lib.indexstore_record_reader_occurrences_apply_f(reader, None, _POINTER_APPLIER(add))
        finally:
            lib.indexstore_record_reader_dispose(reader)
        return found


@dataclass
class CheckedCode:
    """What the index store holds of the shipped targets' sources."""

    package: str
    targets: dict = field(default_factory=dict)  # module name -> sorted relative source paths
    occurrences: list = field(default_factory=list)
    unindexed: list = field(default_factory=list)  # sources with no unit, or newer than it
    plugin_dirs: list = field(default_factory=list)  # Plugins/* folders the store has nothing of


def shipped_source_roots(package):
    """Where SwiftPM looks for the targets that ship: Sources/ and Plugins/. Tests, benchmarks,
    fuzzers and examples of this package all live elsewhere (Package.swift gives their paths)."""
    return [os.path.join(package, top) for top in ("Sources", "Plugins")]


def _swift_files(folder):
    for directory, _subfolders, files in os.walk(folder):
        for name in files:
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def _target_folder(path, package):
    return "/".join(os.path.relpath(path, package).split(os.sep)[:2])


def read_checked_code(store_path, package, only_modules=None):
    """The occurrences of every Swift file under Sources/ and Plugins/ (or of `only_modules`),
    each file read from its newest unit: a target compiled twice (SwiftPM's `-tool` copy for
    a plugin) has two units a file, and an older one can hold what the file no longer says."""
    package = os.path.realpath(package)
    store = IndexStore(store_path)
    roots = shipped_source_roots(package)
    newest = {}
    for name in store.unit_names():
        unit = store.unit(name)
        if unit is None or not unit.main_file:
            continue
        main_file = os.path.realpath(unit.main_file)
        if not any(main_file.startswith(root + os.sep) for root in roots):
            continue
        if only_modules and unit.module not in only_modules:
            continue
        if not os.path.exists(main_file):
            continue  # a file deleted since: its unit stays behind
        if main_file not in newest or unit.mtime > newest[main_file].mtime:
            newest[main_file] = unit
    code = CheckedCode(package)
    seen_records = set()
    for main_file, unit in sorted(newest.items()):
        relative = os.path.relpath(main_file, package)
        code.targets.setdefault(unit.module, []).append(relative)
        if os.path.getmtime(main_file) > unit.mtime:
            code.unindexed.append(relative + " (changed since it was compiled)")
        for record, path in unit.records:
            if record not in seen_records:
                seen_records.add(record)
                code.occurrences.extend(store.occurrences(record, os.path.relpath(path, package)))
    # Each Sources/<T> or Plugins/<P> folder is one target: its module is that of any of its
    # indexed files. A file of a checked target with no unit was not compiled: the check
    # cannot see it. A plugin folder with no unit at all is a plugin SwiftPM compiled unindexed.
    folder_module = {_target_folder(f, package): unit.module for f, unit in newest.items()}
    for root in roots:
        for source in sorted(_swift_files(root)):
            source = os.path.realpath(source)
            folder = _target_folder(source, package)
            module = folder_module.get(folder)
            if source in newest:
                continue
            if module is None and folder.startswith("Plugins/"):
                if folder not in code.plugin_dirs:
                    code.plugin_dirs.append(folder)
            elif only_modules is None or module in only_modules:
                code.unindexed.append(
                    os.path.relpath(source, package) + " (not in the index store)"
                )
    return code


_PLATFORMS_BLOCK = re.compile(r"platforms\s*:\s*\[(.*?)\]", re.S)
_PLATFORM = re.compile(r"\.(\w+)\(\s*(?:\.v(\d+(?:_\d+)*)|\"([\d.]+)\")\s*\)")


def read_floors(package):
    """{"macOS": (13, 0), ...} from Package.swift's `platforms: [...]`: the one place the
    floors are written."""
    with open(os.path.join(package, "Package.swift"), encoding="utf-8") as manifest:
        match = _PLATFORMS_BLOCK.search(manifest.read())
    if not match:
        raise IndexStoreError(f"{package}/Package.swift declares no `platforms:`")
    floors = {}
    for name, enum_version, string_version in _PLATFORM.findall(match.group(1)):
        text = enum_version.replace("_", ".") if enum_version else string_version
        floors[name] = parse_version(text)
    return floors


def parse_version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple((parts + [0, 0])[: max(2, len(parts))])


def format_version(version):
    return ".".join(str(part) for part in version)
