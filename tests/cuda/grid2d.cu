// A 2-D grid of 2-D blocks over a width x height image, and a 3-D launch over a volume;
// both bounds-checked, both write an index-derived value every element must match.
#include "b2t_cuda.h"

extern "C" __global__ void fill_2d(int* __restrict__ out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[y * width + x] = y * 10000 + x;
}

extern "C" __global__ void fill_3d(int* __restrict__ out, int nx, int ny, int nz) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz)
    out[(z * ny + y) * nx + x] =
        static_cast<int>(gridDim.x * gridDim.y * blockIdx.z + gridDim.x * blockIdx.y + blockIdx.x);
}

#ifndef __CUDACC_RTC__
#include <vector>

int main() {
  int wrong = 0;
  const int width = 1000, height = 333;
  std::vector<int> image(width * height);
  int* d_image;
  B2T_CHECK(cudaMalloc(&d_image, image.size() * sizeof(int)));
  const dim3 block2(16, 8);
  const dim3 grid2((width + block2.x - 1) / block2.x, (height + block2.y - 1) / block2.y);
  B2T_LAUNCH(fill_2d, grid2, block2, 0)(d_image, width, height);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaMemcpy(image.data(), d_image, image.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) wrong += image[y * width + x] != y * 10000 + x;
  B2T_CHECK(cudaFree(d_image));

  const int nx = 19, ny = 10, nz = 7;
  const dim3 block3(8, 4, 2);
  const dim3 grid3((nx + 7) / 8, (ny + 3) / 4, (nz + 1) / 2);
  std::vector<int> volume(nx * ny * nz);
  int* d_volume;
  B2T_CHECK(cudaMalloc(&d_volume, volume.size() * sizeof(int)));
  B2T_LAUNCH(fill_3d, grid3, block3, 0)(d_volume, nx, ny, nz);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(
      cudaMemcpy(volume.data(), d_volume, volume.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const int block_id = (z / 2) * grid3.x * grid3.y + (y / 4) * grid3.x + x / 8;
        wrong += volume[(z * ny + y) * nx + x] != block_id;
      }
  B2T_CHECK(cudaFree(d_volume));
  printf("grids %ux%u and %ux%ux%u\n", grid2.x, grid2.y, grid3.x, grid3.y, grid3.z);
  printf("%s grid2d (%d wrong)\n", wrong ? "FAIL" : "PASS", wrong);
  return wrong ? 1 : 0;
}
#endif
