// Why no GPU is used, said as the user can act on it (needs no GPU: the runtime's answers are
// given to the function that words them).
#include <gtest/gtest.h>

#include <string>

#include "cuda/devices_cuda.hpp"
#include "fastmedian/devices.hpp"

namespace fd = fastmedian::detail;

TEST(CudaAbsence, NoDriverIsNotAnOldDriver) {
    // What the runtime answers without libcuda.so.1: "insufficient driver", driver version 0.
    EXPECT_EQ(fd::cuda_absence_reason(cudaErrorInsufficientDriver, 0, 0, 13000),
              "no NVIDIA driver is installed (libcuda.so.1 was not found)");
    EXPECT_EQ(fd::cuda_absence_reason(cudaErrorStubLibrary, 0, 0, 13000),
              "no NVIDIA driver is installed (libcuda.so.1 was not found)");
}

TEST(CudaAbsence, AnOldDriverNamesBothVersions) {
    EXPECT_EQ(fd::cuda_absence_reason(cudaErrorInsufficientDriver, 0, 12040, 13000),
              "the NVIDIA driver supports CUDA 12.4, older than the CUDA 13.0 this build of "
              "fastmedian needs: update the NVIDIA driver");
}

TEST(CudaAbsence, NoGpuUnderADriver) {
    EXPECT_EQ(fd::cuda_absence_reason(cudaErrorNoDevice, 0, 13000, 13000),
              "no NVIDIA GPU found (the NVIDIA driver, for CUDA 13.0, is installed)");
    EXPECT_EQ(fd::cuda_absence_reason(cudaSuccess, 0, 12080, 13000),
              "no NVIDIA GPU found (the NVIDIA driver, for CUDA 12.8, is installed)");
}

TEST(CudaAbsence, OtherErrorsInTheRuntimesWords) {
    EXPECT_EQ(fd::cuda_absence_reason(cudaErrorDevicesUnavailable, 0, 13000, 13000),
              std::string("CUDA runtime reports: ") + cudaGetErrorString(cudaErrorDevicesUnavailable));
}

TEST(CudaAbsence, NothingToSayWithADevice) {
    EXPECT_EQ(fd::cuda_absence_reason(cudaSuccess, 1, 13000, 13000), "");
    // And the library's own answer agrees with the devices it lists.
    EXPECT_EQ(fastmedian::cuda_unavailable_reason().empty(), !fastmedian::cuda_devices().empty());
}
