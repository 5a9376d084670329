#ifndef STRATA_LIBFUZZER_DRIVER_H
#define STRATA_LIBFUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs that keep their own `main`: SwiftPM gives every
/// executable one, so `strata-fuzz` starts the fuzzer itself. Defined by the fuzzer runtime
/// that `-sanitize=fuzzer` links; only referenced in `-DFUZZING` builds.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
