package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad convolution calls fail with invalid_argument, name the parameter, and write no array. */
class ConvolveErrorsTest {
    private static final int W = 8, H = 6, P = 2, N = W * H * P;

    private final byte[] src = new byte[N];
    private final byte[] dst = new byte[N];
    private final float[] box3 = {1, 1, 1, 1, 1, 1, 1, 1, 1};

    private static void assertRejected(String fragment, Executable call) {
        FastMedianException e = assertThrows(FastMedianException.class, call);
        assertEquals("invalid_argument", e.code(), e.toString());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }

    @Test
    void nullArraysAndOptions() {
        ConvolveOptions o = ConvolveOptions.kernel(box3, 3, 3);
        assertRejected("src is null", () -> FastMedian.convolve((byte[]) null, dst, W, H, P, o));
        assertRejected("dst is null", () -> FastMedian.convolve(src, (byte[]) null, W, H, P, o));
        assertRejected("options is null", () -> FastMedian.convolve(src, dst, W, H, P, null));
        assertRejected("options.mask is null",
                () -> FastMedian.convolve(src, dst, W, H, P, ConvolveOptions.kernel(null, 3, 3)));
        assertRejected("options.columnMask is null", () -> FastMedian.convolve(src, dst, W, H, P,
                ConvolveOptions.separable(new float[] {1}, null)));
        assertRejected("options.border is null",
                () -> FastMedian.convolve(src, dst, W, H, P, ConvolveOptions.gaussian(1).border(null)));
    }

    @Test
    void arraysThatDoNotFit() {
        ConvolveOptions o = ConvolveOptions.kernel(box3, 3, 3);
        assertRejected("dst has " + (N - 1) + " elements",
                () -> FastMedian.convolve(src, new float[N - 1], W, H, P, o));
        assertRejected("dst is the same array as src", () -> FastMedian.convolve(src, src, W, H, P, o));
        assertRejected("width must be at least 1", () -> FastMedian.convolve(src, dst, 0, H, P, o));
        assertRejected("dst must be a byte[] or float[]", () -> Natives.convolveU8(src, new short[N],
                W, H, P, 0, box3, 3, 3, null, null, 0, false, "replicate", 0, "cpu", new int[] {0}));
    }

    @Test
    void masksThatAreNotMasks() {
        assertRejected("mask has 9 values but mask_width x mask_height is 3 x 5", () ->
                FastMedian.convolve(src, dst, W, H, P, ConvolveOptions.kernel(box3, 3, 5)));
        assertRejected("mask_width must be odd", () ->
                FastMedian.convolve(src, dst, W, H, P, ConvolveOptions.kernel(new float[4], 2, 2)));
        assertRejected("mask[1] is NaN".toLowerCase(), () -> FastMedian.convolve(src, dst, W, H, P,
                ConvolveOptions.kernel(new float[] {1, Float.NaN, 1}, 3, 1)));
        assertRejected("row_mask has 2 values", () -> FastMedian.convolve(src, dst, W, H, P,
                ConvolveOptions.separable(new float[2], new float[] {1})));
        assertRejected("normalize needs a mask whose sum is not 0", () -> FastMedian.convolve(src,
                dst, W, H, P, ConvolveOptions.kernel(new float[] {1, -2, 1}, 3, 1).normalize(true)));
        assertRejected("sigma must be a number above 0",
                () -> FastMedian.convolve(src, dst, W, H, P, ConvolveOptions.gaussian(0)));
        assertRejected("sigma", () -> ConvolveOptions.gaussianMask(-1));
        assertRejected("cval must be finite", () -> FastMedian.convolve(src, dst, W, H, P,
                ConvolveOptions.gaussian(1).border(Border.CONSTANT).cval(Double.NaN)));
        assertArrayEquals(new byte[N], dst, "dst written by a failed call");
    }
}
