package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The temporal median's backend choice, on a machine with or without a GPU. */
class TemporalBackendTest {
    private static final int W = 64, H = 48, P = 30, N = W * H * P;

    @Test
    void autoUsesCudaExactlyWhenAUsableDeviceExists() {
        RunInfo info = FastMedian.temporalMedian(stack(), new short[N], W, H, P,
                TemporalOptions.of(9));
        boolean gpu = FastMedian.cudaUnavailableReason().isEmpty();
        assertEquals(gpu ? Backend.CUDA : Backend.CPU, info.backend(), info.toString());
    }

    @Test
    void cudaWithoutAGpuIsAClearError() {
        assumeTrue(!FastMedian.cudaUnavailableReason().isEmpty(), "a usable CUDA device is present");
        FastMedianException e = assertThrows(FastMedianException.class,
                () -> FastMedian.temporalMedian(stack(), new short[N], W, H, P,
                        TemporalOptions.of(9).backend(Backend.CUDA)));
        assertEquals("backend_unavailable", e.code(), e.toString());
        e = assertThrows(FastMedianException.class, () -> new TemporalMedianStream(16, W, H,
                TemporalOptions.of(9).backend(Backend.CUDA)));
        assertEquals("backend_unavailable", e.code(), e.toString());
    }

    @Test
    void cudaMatchesCpu() {
        assumeTrue(FastMedian.cudaUnavailableReason().isEmpty(),
                "no CUDA device: " + FastMedian.cudaUnavailableReason());
        short[] src = stack();
        for (TemporalMode mode : TemporalMode.values()) {
            for (int window : new int[] {2, 9, 30}) {
                TemporalOptions o = TemporalOptions.of(window).mode(mode).offset(-7);
                short[] cpu = new short[N], cuda = new short[N];
                FastMedian.temporalMedian(src, cpu, W, H, P, o.backend(Backend.CPU));
                RunInfo info = FastMedian.temporalMedian(src, cuda, W, H, P,
                        o.backend(Backend.CUDA));
                assertEquals(Backend.CUDA, info.backend());
                assertArrayEquals(cpu, cuda, mode + " N=" + window);
                // The stream on the GPU against the stream on the CPU, frame by frame.
                try (TemporalMedianStream onCpu = new TemporalMedianStream(16, W, H,
                        o.backend(Backend.CPU));
                        TemporalMedianStream onCuda = new TemporalMedianStream(16, W, H,
                                o.backend(Backend.CUDA))) {
                    assertEquals(Backend.CUDA, onCuda.runInfo().backend());
                    short[] frame = new short[W * H], a = new short[W * H], b = new short[W * H];
                    for (int t = 0; t < P; t++) {
                        System.arraycopy(src, t * W * H, frame, 0, W * H);
                        onCpu.push(frame, a);
                        onCuda.push(frame, b);
                        assertArrayEquals(a, b, "stream " + mode + " N=" + window + " t=" + t);
                    }
                }
            }
        }
    }

    private static short[] stack() {
        Random rnd = new Random(11);
        short[] a = new short[N];
        for (int i = 0; i < N; i++) a[i] = (short) rnd.nextInt(65536);
        return a;
    }
}
