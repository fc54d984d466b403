/* The MPI program of the Slurm integration tests: each rank prints one line naming itself, its host
 * and the GPUs Slurm gave it, after a barrier proves that all ranks really joined one world. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, len = 0;
  char host[MPI_MAX_PROCESSOR_NAME];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_processor_name(host, &len);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const char* gpus = getenv("CUDA_VISIBLE_DEVICES");
  printf("rank %d of %d on %s gpus=%s ranksum=%d\n", rank, size, host, gpus ? gpus : "", sum);
  MPI_Finalize();
  return 0;
}
