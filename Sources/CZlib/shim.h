#ifndef CORESEED_CZLIB_SHIM_H
#define CORESEED_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro Swift cannot import. Negative windowBits: a raw DEFLATE stream, no zlib
/// header or checksum (how Core Data stores Z_MODELCACHE).
static inline int coreseed_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}
/// deflateInit2 likewise: level 5, memLevel 8, raw (windowBits -15), default strategy.
static inline int coreseed_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}
#endif
