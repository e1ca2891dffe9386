package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad calls fail with invalid_argument, name the parameter, and write neither array. */
class MedianErrorsTest {
    private static final int W = 8, H = 6, P = 2, N = W * H * P;

    private final byte[] src = pattern(N);
    private final byte[] dst = new byte[N];

    @Test
    void nullSrc() {
        assertRejected("src is null", () -> FastMedian.median(null, dst, W, H, P, square3()));
    }

    @Test
    void nullDst() {
        assertRejected("dst is null", () -> FastMedian.median(src, null, W, H, P, square3()));
    }

    @Test
    void shortSrc() {
        byte[] shortSrc = pattern(N - 1);
        byte[] before = shortSrc.clone();
        assertRejected("src has " + (N - 1) + " elements but width*height*planes is " + N,
                () -> FastMedian.median(shortSrc, dst, W, H, P, square3()));
        assertArrayEquals(before, shortSrc);
    }

    @Test
    void longSrc() {
        assertRejected("src has " + (N + 1) + " elements",
                () -> FastMedian.median(pattern(N + 1), dst, W, H, P, square3()));
    }

    @Test
    void shortDst() {
        assertRejected("dst has " + (N - 1) + " elements",
                () -> FastMedian.median(src, new byte[N - 1], W, H, P, square3()));
    }

    @Test
    void dstIsSrc() {
        assertRejected("dst is the same array as src",
                () -> FastMedian.median(src, src, W, H, P, square3()));
    }

    @Test
    void zeroWidth() {
        assertRejected("width must be at least 1, got 0",
                () -> FastMedian.median(src, dst, 0, H, P, square3()));
    }

    @Test
    void negativePlanes() {
        assertRejected("planes must be at least 1, got -2",
                () -> FastMedian.median(src, dst, W, H, -2, square3()));
    }

    @Test
    void evenSize() {
        assertRejected("window.size",
                () -> FastMedian.median(src, dst, W, H, P, MedianOptions.square(4)));
    }

    @Test
    void negativeRadius() {
        assertRejected("window.radius",
                () -> FastMedian.median(src, dst, W, H, P, MedianOptions.circle(-1)));
    }

    @Test
    void nanRadius() {
        assertRejected("window.radius",
                () -> FastMedian.median(src, dst, W, H, P, MedianOptions.circle(Double.NaN)));
    }

    @Test
    void nullOptions() {
        assertRejected("options is null", () -> FastMedian.median(src, dst, W, H, P, null));
    }

    @Test
    void nullBorder() {
        assertRejected("options.border is null",
                () -> FastMedian.median(src, dst, W, H, P, square3().border(null)));
    }

    @Test
    void negativeDevice() {
        assertRejected("device",
                () -> FastMedian.median(src, dst, W, H, P, square3().device(-1)));
    }

    @Test
    void deviceListedTwice() {
        assertRejected("devices lists device 1 twice",
                () -> FastMedian.median(src, dst, W, H, P, square3().devices(1, 0, 1)));
        assertRejected("devices must be CUDA device indices",
                () -> FastMedian.background(src, dst, W, H, P,
                        BackgroundOptions.square(3).devices(0, -1)));
        assertRejected("devices lists device 0 twice",
                () -> FastMedian.convolve(src, dst, W, H, P,
                        ConvolveOptions.gaussian(1.0).devices(0, 0)));
        assertRejected("devices: at least one CUDA device index",
                () -> square3().devices(new int[0]));
        assertRejected("devices: at least one CUDA device index",
                () -> BackgroundOptions.square(3).devices((int[]) null));
        assertRejected("devices: at least one CUDA device index",
                () -> ConvolveOptions.gaussian(1.0).devices(new int[0]));
    }

    @Test
    void devicesGiveTheSameResult() {
        byte[] want = new byte[N];
        FastMedian.median(src, want, W, H, P, square3());
        FastMedian.median(src, dst, W, H, P, square3().devices(0, 1).backend(Backend.CPU));
        assertArrayEquals(want, dst);
        assertArrayEquals(new int[] {2, 0}, square3().devices(2, 0).devices());
        assertEquals(2, square3().devices(2, 0).device());
    }

    // The 16-bit and float entry points go through the same checks.
    @Test
    void shortSrc16() {
        short[] in = new short[N - 1];
        assertRejected("src has " + (N - 1) + " elements",
                () -> FastMedian.median(in, new short[N], W, H, P, square3()));
    }

    @Test
    void nanRadiusFloat() {
        float[] in = new float[N];
        in[3] = 42;
        assertRejected("window.radius", () -> FastMedian.median(in, new float[N], W, H, P,
                MedianOptions.circle(Double.NaN)));
        assertEquals(42f, in[3]);
    }

    private void assertRejected(String expectedInMessage, Executable call) {
        byte[] srcBefore = src.clone();
        byte[] dstBefore = dst.clone();
        FastMedianException e = assertThrows(FastMedianException.class, call);
        assertEquals("invalid_argument", e.code(), e.toString());
        assertTrue(e.getMessage().contains(expectedInMessage),
                "message \"" + e.getMessage() + "\" lacks \"" + expectedInMessage + "\"");
        assertArrayEquals(srcBefore, src, "src was written");
        assertArrayEquals(dstBefore, dst, "dst was written by a failed call");
    }

    private static MedianOptions square3() {
        return MedianOptions.square(3);
    }

    private static byte[] pattern(int n) {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) a[i] = (byte) (i * 37);
        return a;
    }
}
