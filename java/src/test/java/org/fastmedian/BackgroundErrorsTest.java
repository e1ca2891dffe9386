package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad background calls fail with invalid_argument, name the parameter, and write neither array. */
class BackgroundErrorsTest {
    private static final int W = 8, H = 6, P = 2, N = W * H * P;

    private final byte[] src = pattern(N);
    private final byte[] dst = new byte[N];

    @Test
    void nullSrc() {
        assertRejected("src is null", () -> FastMedian.background(null, dst, W, H, P, square9()));
    }

    @Test
    void nullDst() {
        assertRejected("dst is null", () -> FastMedian.background(src, null, W, H, P, square9()));
    }

    @Test
    void shortSrc() {
        assertRejected("src has " + (N - 1) + " elements but width*height*planes is " + N,
                () -> FastMedian.background(pattern(N - 1), dst, W, H, P, square9()));
    }

    @Test
    void shortDst16() {
        assertRejected("dst has " + (N - 1) + " elements", () -> FastMedian.background(
                new short[N], new short[N - 1], W, H, P, square9()));
    }

    @Test
    void dstIsSrc() {
        assertRejected("dst is the same array as src",
                () -> FastMedian.background(src, src, W, H, P, square9()));
    }

    @Test
    void zeroHeight() {
        assertRejected("height must be at least 1, got 0",
                () -> FastMedian.background(new byte[0], new byte[0], W, 0, P, square9()));
    }

    @Test
    void evenSize() {
        assertRejected("window.size",
                () -> FastMedian.background(src, dst, W, H, P, BackgroundOptions.square(64)));
    }

    @Test
    void sizeAboveTheMaximum() {
        assertRejected("window.size",
                () -> FastMedian.background(src, dst, W, H, P, BackgroundOptions.square(1025)));
    }

    @Test
    void negativeRadius() {
        assertRejected("window.radius",
                () -> FastMedian.background(src, dst, W, H, P, BackgroundOptions.circle(-1)));
    }

    @Test
    void separableCircle() {
        assertRejected("method separable needs a square window", () -> FastMedian.background(
                src, dst, W, H, P, BackgroundOptions.circle(20).method(BackgroundMethod.SEPARABLE)));
    }

    @Test
    void nullOptions() {
        assertRejected("options is null", () -> FastMedian.background(src, dst, W, H, P, null));
    }

    @Test
    void nullMethod() {
        assertRejected("options.method is null",
                () -> FastMedian.background(src, dst, W, H, P, square9().method(null)));
    }

    @Test
    void nullOutput() {
        assertRejected("options.output is null",
                () -> FastMedian.background(src, dst, W, H, P, square9().output(null)));
    }

    @Test
    void nullBorder() {
        assertRejected("options.border is null",
                () -> FastMedian.background(src, dst, W, H, P, square9().border(null)));
    }

    @Test
    void nullBackend() {
        assertRejected("options.backend is null",
                () -> FastMedian.background(src, dst, W, H, P, square9().backend(null)));
    }

    @Test
    void nanOffset() {
        assertRejected("offset",
                () -> FastMedian.background(src, dst, W, H, P, square9().offset(Double.NaN)));
    }

    @Test
    void hugeOffsetFloat() {
        float[] in = new float[N];
        in[3] = 42;
        assertRejected("offset", () -> FastMedian.background(in, new float[N], W, H, P,
                square9().offset(-2e9)));
        assertEquals(42f, in[3]);
    }

    @Test
    void infiniteCvalForIntegers() {
        assertRejected("cval", () -> FastMedian.background(src, dst, W, H, P,
                square9().border(Border.CONSTANT).cval(Double.POSITIVE_INFINITY)));
    }

    @Test
    void negativeDevice() {
        assertRejected("device",
                () -> FastMedian.background(src, dst, W, H, P, square9().device(-1)));
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

    private static BackgroundOptions square9() {
        return BackgroundOptions.square(9).backend(Backend.CPU);
    }

    private static byte[] pattern(int n) {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) a[i] = (byte) (i * 37);
        return a;
    }
}
