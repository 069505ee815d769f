/* The private layer: what every module's src/ shares and no caller sees.
 * Never installed; the cairn_private CMake target puts this folder on the
 * include path of every module and test. */
#ifndef CAIRN_PRIVATE_H
#define CAIRN_PRIVATE_H

#include "cairn_alloc.h"  /* the caller's allocator, one size rule */
#include "cairn_bits.h"   /* CAIRN_INLINE, CAIRN_PRINTF, cairn__ctz */
#include "cairn_clock.h"  /* cairn__now_ns, cairn__now_ms: monotonic */
#include "cairn_dirs.h"   /* cairn__dx, cairn__dy: the move order */
#include "cairn_save.h"   /* save formats: little-endian buffers, the hash */
#include "cairn_thread.h" /* locks, relaxed atomics, the jobs to run on */

#endif
