package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad 3D median calls fail with invalid_argument, name the parameter, and write neither array. */
class Median3DErrorsTest {
    private static final int W = 8, H = 6, P = 3, N = W * H * P;

    private final byte[] src = pattern(N);
    private final byte[] dst = new byte[N];

    @Test
    void nullSrc() {
        assertRejected("src is null", () -> FastMedian.median3d(null, dst, W, H, P, box3()));
    }

    @Test
    void shortSrc() {
        assertRejected("src has " + (N - 1) + " elements but width*height*planes is " + N,
                () -> FastMedian.median3d(pattern(N - 1), dst, W, H, P, box3()));
    }

    @Test
    void dstIsSrc() {
        assertRejected("dst is the same array as src",
                () -> FastMedian.median3d(src, src, W, H, P, box3()));
    }

    @Test
    void zeroPlanes() {
        assertRejected("planes must be at least 1, got 0",
                () -> FastMedian.median3d(src, dst, W, H, 0, box3()));
    }

    @Test
    void evenSide() {
        assertRejected("window.size_y must be odd and in 1..255, got 4",
                () -> FastMedian.median3d(src, dst, W, H, P, Median3DOptions.box(3, 4, 3)));
    }

    @Test
    void sideTooLarge() {
        assertRejected("window.size_z must be odd and in 1..255, got 257",
                () -> FastMedian.median3d(src, dst, W, H, P, Median3DOptions.box(1, 1, 257)));
    }

    @Test
    void tooManyVoxels() {
        assertRejected("window has 1092727 voxels, more than the 1048576 allowed",
                () -> FastMedian.median3d(src, dst, W, H, P, Median3DOptions.box(103)));
    }

    @Test
    void negativeRadius() {
        assertRejected("window.radius_x must be finite and in 0..127, got -1",
                () -> FastMedian.median3d(src, dst, W, H, P,
                        Median3DOptions.ellipsoid(-1, 2, 2)));
    }

    @Test
    void nanRadius() {
        assertRejected("window.radius_z must be finite",
                () -> FastMedian.median3d(src, dst, W, H, P,
                        Median3DOptions.ellipsoid(2, 2, Double.NaN)));
    }

    @Test
    void nullOptions() {
        assertRejected("options is null", () -> FastMedian.median3d(src, dst, W, H, P, null));
    }

    @Test
    void nullBorder() {
        assertRejected("options.border is null",
                () -> FastMedian.median3d(src, dst, W, H, P, box3().border(null)));
    }

    @Test
    void nullBackend() {
        assertRejected("options.backend is null",
                () -> FastMedian.median3d(src, dst, W, H, P, box3().backend(null)));
    }

    @Test
    void negativeDevice() {
        assertRejected("device",
                () -> FastMedian.median3d(src, dst, W, H, P, box3().device(-1)));
    }

    // The 16-bit and float entry points go through the same checks.
    @Test
    void shortSrc16() {
        assertRejected("src has " + (N - 1) + " elements", () -> FastMedian.median3d(
                new short[N - 1], new short[N], W, H, P, box3()));
    }

    @Test
    void nanRadiusFloat() {
        float[] in = new float[N];
        float[] out = new float[N];
        in[3] = 42;
        out[5] = 7;
        assertRejected("window.radius_y", () -> FastMedian.median3d(in, out, W, H, P,
                Median3DOptions.ellipsoid(1, Double.NaN, 1)));
        assertEquals(42f, in[3]);
        assertEquals(7f, out[5]);
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

    private static Median3DOptions box3() {
        return Median3DOptions.box(3);
    }

    private static byte[] pattern(int n) {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) a[i] = (byte) (i * 37);
        return a;
    }
}
