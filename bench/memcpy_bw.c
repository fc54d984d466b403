/* The physical limit of bench/collbench_mpi: single-threaded memcpy bandwidth on this machine at a
 * message size. Both buffers are touched first; `warmup` untimed copies, then `iters` timed ones.
 * Prints: memcpy_bw bytes=<B> time_us=<t per copy> bw=<GB/s of bytes copied>
 * (each byte copied is one read and one write of memory: the memory traffic is twice the figure).
 * Usage: memcpy_bw BYTES [WARMUP [ITERS]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: memcpy_bw BYTES [WARMUP [ITERS]]\n");
    return 2;
  }
  const size_t bytes = strtoull(argv[1], NULL, 10);
  const int warmup = argc > 2 ? atoi(argv[2]) : 5, iters = argc > 3 ? atoi(argv[3]) : 20;
  const size_t rounded = (bytes + 63) / 64 * 64;
  char* src = aligned_alloc(64, rounded);
  char* dst = aligned_alloc(64, rounded);
  if (!src || !dst) return 1;
  memset(src, 1, rounded);
  memset(dst, 0, rounded);
  for (int i = 0; i < warmup; ++i) {
    memcpy(dst, src, bytes);
    src[i % bytes] = (char)i;  /* keep the copies from being elided */
  }
  const double start = now();
  for (int i = 0; i < iters; ++i) {
    memcpy(dst, src, bytes);
    src[(size_t)i * 4096 % bytes] = (char)i;
  }
  const double seconds = (now() - start) / iters;
  printf("memcpy_bw bytes=%zu time_us=%.1f bw=%.4f check=%d\n", bytes, seconds * 1e6, (double)bytes / seconds / 1e9,
         dst[bytes - 1]);
  free(src);
  free(dst);
  return 0;
}
