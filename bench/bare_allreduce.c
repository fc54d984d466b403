/* The peer of bench/collbench_mpi: a bare MPI_Allreduce loop (fp32, sum, out of place), timed the way
 * collbench times: `warmup` untimed calls, a barrier, `iters` timed calls; time per iteration is each
 * rank's mean, averaged over the ranks; busbw = 2(n-1)/n * bytes / time. Rank 0 prints one line:
 *   bare_allreduce bytes=<B> ranks=<n> time_us=<t> busbw=<GB/s> wrong=<elements>
 * Usage: mpirun -np N bare_allreduce BYTES [WARMUP [ITERS]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: bare_allreduce BYTES [WARMUP [ITERS]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const size_t bytes = strtoull(argv[1], NULL, 10);
  const int warmup = argc > 2 ? atoi(argv[2]) : 5, iters = argc > 3 ? atoi(argv[3]) : 20;
  const size_t count = bytes / sizeof(float);
  if (count > 2147483647u) {
    if (rank == 0) fprintf(stderr, "bare_allreduce: %zu elements exceed MPI's int count\n", count);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const size_t rounded = (count * sizeof(float) + 63) / 64 * 64;
  float* in = aligned_alloc(64, rounded);
  float* out = aligned_alloc(64, rounded);
  if (!in || !out) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(out, 0, rounded);
  for (size_t i = 0; i < count; ++i) in[i] = (float)(rank + 1);

  /* One checked call, then the timing loop (the input never changes: out of place). */
  MPI_Allreduce(in, out, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  const float expected = (float)size * (float)(size + 1) / 2.0f;
  double wrong = 0;
  for (size_t i = 0; i < count; ++i) wrong += out[i] != expected;

  for (int i = 0; i < warmup; ++i) MPI_Allreduce(in, out, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < iters; ++i) MPI_Allreduce(in, out, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  double sums[2] = {(MPI_Wtime() - start) / iters, wrong};
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double seconds = sums[0] / size;
  const double busbw = 2.0 * (size - 1) / size * (double)(count * sizeof(float)) / seconds / 1e9;
  if (rank == 0)
    printf("bare_allreduce bytes=%zu ranks=%d time_us=%.1f busbw=%.4f wrong=%.0f\n", count * sizeof(float), size,
           seconds * 1e6, busbw, sums[1]);
  free(in);
  free(out);
  MPI_Finalize();
  return sums[1] == 0 ? 0 : 3;
}
