package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The background's backend choice, on a machine with or without a GPU. */
class BackgroundBackendTest {
    private static final int W = 150, H = 97, P = 2, N = W * H * P;

    @Test
    void autoUsesCudaExactlyWhenAUsableDeviceExists() {
        RunInfo info = FastMedian.background(stack(), new short[N], W, H, P,
                BackgroundOptions.square(65));
        boolean gpu = FastMedian.cudaUnavailableReason().isEmpty();
        assertEquals(gpu ? Backend.CUDA : Backend.CPU, info.backend(), info.toString());
    }

    @Test
    void cudaWithoutAGpuIsAClearError() {
        assumeTrue(!FastMedian.cudaUnavailableReason().isEmpty(), "a usable CUDA device is present");
        FastMedianException e = assertThrows(FastMedianException.class,
                () -> FastMedian.background(stack(), new short[N], W, H, P,
                        BackgroundOptions.square(65).backend(Backend.CUDA)));
        assertEquals("backend_unavailable", e.code(), e.toString());
    }

    @Test
    void cudaMatchesCpu() {
        assumeTrue(FastMedian.cudaUnavailableReason().isEmpty(),
                "no CUDA device: " + FastMedian.cudaUnavailableReason());
        short[] src = stack();
        BackgroundOptions[] cases = {BackgroundOptions.square(65),
            BackgroundOptions.square(129).border(Border.REFLECT),
            BackgroundOptions.circle(30).border(Border.WRAP),
            BackgroundOptions.square(65).method(BackgroundMethod.SEPARABLE),
            BackgroundOptions.square(129).method(BackgroundMethod.SEPARABLE)
                    .border(Border.CONSTANT).cval(1000)};
        for (BackgroundOptions o : cases)
            for (BackgroundOutput output : BackgroundOutput.values()) {
                o.output(output).offset(output == BackgroundOutput.SUBTRACT ? 100 : 0);
                short[] cpu = new short[N], cuda = new short[N];
                FastMedian.background(src, cpu, W, H, P, o.backend(Backend.CPU));
                RunInfo info = FastMedian.background(src, cuda, W, H, P, o.backend(Backend.CUDA));
                assertEquals(Backend.CUDA, info.backend());
                assertArrayEquals(cpu, cuda, o.toString());
            }
    }

    private static short[] stack() {
        Random rnd = new Random(11);
        short[] a = new short[N];
        for (int i = 0; i < N; i++) a[i] = (short) rnd.nextInt(65536);
        return a;
    }
}
