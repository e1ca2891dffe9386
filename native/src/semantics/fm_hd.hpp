// Marks functions shared by device code and the CPU backend; plain inline for a host compiler.
#pragma once

#ifdef __CUDACC__
#define FM_HD __host__ __device__ __forceinline__
#else
#define FM_HD inline
#endif
