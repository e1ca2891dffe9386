package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Backend choice and the device queries, on a machine with or without a GPU. */
class BackendTest {
    private static final int W = 64, H = 48, P = 3, N = W * H * P;

    @Test
    void versionIsMajorMinorPatch() {
        assertTrue(FastMedian.version().matches("\\d+\\.\\d+\\.\\d+"), FastMedian.version());
    }

    @Test
    void deviceQueriesAgree() {
        DeviceInfo[] devices = FastMedian.cudaDevices();
        String reason = FastMedian.cudaUnavailableReason();
        boolean usable = false;
        for (DeviceInfo d : devices) usable |= d.unsupported().isEmpty();
        assertEquals(usable, reason.isEmpty(), "usable devices vs reason \"" + reason + "\"");
        if (!FastMedian.cudaCompiled()) assertEquals(0, devices.length);
        for (int i = 0; i < devices.length; i++) {
            assertEquals(i, devices[i].index());
            assertFalse(devices[i].name().isEmpty());
            // A usable device names its policy; an unusable one says why and names none or its own.
            if (devices[i].unsupported().isEmpty())
                assertTrue(devices[i].policy().matches("sm_\\d+"), devices[i].toString());
        }
    }

    @Test
    void unknownBackendNameIsAFastMedianException() {
        FastMedianException e = assertThrows(FastMedianException.class, () -> Backend.fromName("gpu"));
        assertEquals("invalid_argument", e.code());
        assertTrue(e.getMessage().contains("unknown backend name: gpu"), e.getMessage());
    }

    @Test
    void cpuBackendRunsOnTheCpu() {
        RunInfo info = FastMedian.median(image(), new short[N], W, H, P,
                MedianOptions.circle(2).backend(Backend.CPU));
        assertEquals(Backend.CPU, info.backend());
        assertEquals(-1, info.device());
        assertEquals("CPU", info.deviceName());
    }

    @Test
    void autoUsesCudaExactlyWhenADeviceExists() {
        RunInfo info = FastMedian.median(image(), new short[N], W, H, P, MedianOptions.circle(2));
        boolean gpu = FastMedian.cudaUnavailableReason().isEmpty();
        assertEquals(gpu ? Backend.CUDA : Backend.CPU, info.backend(), info.toString());
    }

    @Test
    void cudaWithoutAGpuIsAClearError() {
        assumeTrue(!FastMedian.cudaUnavailableReason().isEmpty(), "a usable CUDA device is present");
        FastMedianException e = assertThrows(FastMedianException.class, () -> FastMedian.median(
                image(), new short[N], W, H, P, MedianOptions.circle(2).backend(Backend.CUDA)));
        assertEquals("backend_unavailable", e.code());
        assertTrue(e.getMessage().contains("cuda"), e.getMessage());
        assertTrue(e.getMessage().contains(FastMedian.cudaUnavailableReason()), e.getMessage());
    }

    @Test
    void missingDeviceIsAClearError() {
        int missing = FastMedian.cudaDevices().length;
        FastMedianException e = assertThrows(FastMedianException.class,
                () -> FastMedian.median(image(), new short[N], W, H, P,
                        MedianOptions.circle(2).backend(Backend.CUDA).device(missing)));
        assertEquals("backend_unavailable", e.code());
    }

    @Test
    void cudaMatchesCpu() {
        DeviceInfo[] devices = FastMedian.cudaDevices();
        assumeTrue(FastMedian.cudaUnavailableReason().isEmpty(),
                "no usable CUDA device: " + FastMedian.cudaUnavailableReason());
        short[] src = image(), cpu = new short[N], cuda = new short[N];
        FastMedian.median(src, cpu, W, H, P, MedianOptions.circle(3).backend(Backend.CPU));
        RunInfo info = FastMedian.median(src, cuda, W, H, P,
                MedianOptions.circle(3).backend(Backend.CUDA));
        assertEquals(Backend.CUDA, info.backend());
        assertEquals(0, info.device());
        assertEquals(devices[0].name(), info.deviceName());
        assertArrayEquals(cpu, cuda);
    }

    private static short[] image() {
        Random rnd = new Random(7);
        short[] a = new short[N];
        for (int i = 0; i < N; i++) a[i] = (short) rnd.nextInt(65536);
        return a;
    }
}
