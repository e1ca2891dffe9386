package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The convolution's backend choice, on a machine with or without a GPU. */
class ConvolveBackendTest {
    private static final int W = 300, H = 70, P = 2, N = W * H * P;

    private static float[] image() {
        Random r = new Random(5);
        float[] f = new float[N];
        for (int i = 0; i < N; i++) f[i] = (float) r.nextGaussian() * 100;
        return f;
    }

    @Test
    void autoUsesCudaExactlyWhenAUsableDeviceExists() {
        RunInfo info = FastMedian.gaussianBlur(image(), new float[N], W, H, P, 2.0);
        boolean gpu = FastMedian.cudaUnavailableReason().isEmpty();
        assertEquals(gpu ? Backend.CUDA : Backend.CPU, info.backend(), info.toString());
    }

    @Test
    void cudaWithoutAGpuIsAClearError() {
        assumeTrue(!FastMedian.cudaUnavailableReason().isEmpty(), "a usable CUDA device is present");
        FastMedianException e = assertThrows(FastMedianException.class, () -> FastMedian.convolve(
                image(), new float[N], W, H, P, ConvolveOptions.gaussian(1).backend(Backend.CUDA)));
        assertEquals("backend_unavailable", e.code(), e.toString());
    }

    @Test
    void cudaMatchesCpu() {
        assumeTrue(FastMedian.cudaUnavailableReason().isEmpty(),
                "no CUDA device: " + FastMedian.cudaUnavailableReason());
        float[] src = image();
        short[] s = new short[N];
        for (int i = 0; i < N; i++) s[i] = (short) (src[i] * 50);
        float[] mask = new float[25];
        for (int i = 0; i < 25; i++) mask[i] = (i % 7) - 2.5f;
        for (ConvolveOptions o : new ConvolveOptions[] {ConvolveOptions.kernel(mask, 5, 5),
                ConvolveOptions.gaussian(3).border(Border.MIRROR)}) {
            float[] cpu = new float[N], cuda = new float[N];
            FastMedian.convolve(src, cpu, W, H, P, o.backend(Backend.CPU));
            RunInfo info = FastMedian.convolve(src, cuda, W, H, P, o.backend(Backend.CUDA));
            assertEquals(Backend.CUDA, info.backend());
            assertArrayEquals(cpu, cuda, o.toString());
            short[] a = new short[N], b = new short[N];
            FastMedian.convolve(s, a, W, H, P, o.backend(Backend.CPU));
            FastMedian.convolve(s, b, W, H, P, o.backend(Backend.CUDA));
            assertArrayEquals(a, b, o + " u16");
        }
    }
}
