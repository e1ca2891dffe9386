// Why no GPU is used, said as the user can act on it (needs no GPU: the runtime's answers are
// given to the function that words them).
#include <gtest/gtest.h>

#include <string>
#include <utility>

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
    // And the library's own answer agrees with the devices it lists: empty where one is usable.
    bool usable = false;
    for (const fastmedian::DeviceInfo& d : fastmedian::cuda_devices()) usable |= d.unsupported.empty();
    EXPECT_EQ(fastmedian::cuda_unavailable_reason().empty(), usable);
}

// Which GPUs a build's CMAKE_CUDA_ARCHITECTURES serves: machine code within its major version
// from its minor up, an arch-specific build on its own GPU alone, PTX on every later GPU.
TEST(CudaArchitectures, MachineCodeAndPtxServeTheirGpus) {
    const std::string release = "75-real,80-real,86-real,89-real,90-real,100-real,120";
    for (auto [major, minor] : {std::pair{7, 5}, std::pair{8, 0}, std::pair{8, 6}, std::pair{8, 7}, std::pair{8, 9},
                                std::pair{9, 0}, std::pair{10, 0}, std::pair{12, 0}, std::pair{12, 1}, std::pair{13, 0}})
        EXPECT_TRUE(fd::architectures_run_on(release, major, minor)) << major << "." << minor;
    EXPECT_FALSE(fd::architectures_run_on(release, 7, 0));
    EXPECT_TRUE(fd::architectures_run_on("90", 9, 0));
    EXPECT_TRUE(fd::architectures_run_on("90", 12, 0));       // PTX, compiled by the driver
    EXPECT_FALSE(fd::architectures_run_on("90", 8, 6));
    EXPECT_FALSE(fd::architectures_run_on("90-real", 10, 0));  // machine code of another major
    EXPECT_TRUE(fd::architectures_run_on("80-real", 8, 6));   // sm_80 code runs on 8.6
    EXPECT_FALSE(fd::architectures_run_on("86-real", 8, 0));
    EXPECT_FALSE(fd::architectures_run_on("86-virtual", 8, 0));
    EXPECT_TRUE(fd::architectures_run_on("86-virtual", 8, 9));
    EXPECT_TRUE(fd::architectures_run_on("90a-real", 9, 0));
    EXPECT_FALSE(fd::architectures_run_on("90a-real", 10, 0));
    EXPECT_TRUE(fd::architectures_run_on("75;86", 8, 9));
    EXPECT_TRUE(fd::architectures_run_on("all-major", 7, 5));
}
