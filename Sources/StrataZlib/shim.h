#ifndef STRATA_ZLIB_SHIM_H
#define STRATA_ZLIB_SHIM_H
#include <zlib.h>

// Swift cannot call zlib's inflateInit2, a macro: a small wrapper here. 15 + 16 as the window
// bits reads gzip data (header and trailer checked), not a bare zlib stream.
static inline int strata_inflate_init_gzip(z_stream *stream) {
  return inflateInit2(stream, 15 + 16);
}
#endif
