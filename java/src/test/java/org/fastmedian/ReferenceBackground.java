package org.fastmedian;

import java.util.Arrays;

/**
 * A slow, plain background to check the library against: ReferenceMedian for method exact, two
 * 1D medians (y, then x) for method separable, then the output step. Pixels are floats (exact
 * for 8 and 16-bit values); {@code max} is the integer type's largest value, or 0 for floats;
 * {@code outside} the value read outside for CONSTANT, already in the pixel type.
 */
final class ReferenceBackground {
    private ReferenceBackground() {}

    static float[] background(float[] src, int width, int height, int planes,
            BackgroundOptions o, float outside, int max) {
        float[] bg;
        if (o.method() == BackgroundMethod.EXACT) {
            int[] window = o.isCircle() ? ReferenceMedian.circle(o.radius())
                    : ReferenceMedian.square(o.size());
            bg = ReferenceMedian.median(src, width, height, planes, window, o.border(), outside);
        } else {
            float[] columns = median1d(src, width, height, planes, o.size(), true, o.border(),
                    outside);
            bg = median1d(columns, width, height, planes, o.size(), false, o.border(), outside);
        }
        if (o.output() == BackgroundOutput.BACKGROUND) return bg;
        float[] dst = new float[src.length];
        for (int i = 0; i < src.length; i++) dst[i] = subtract(src[i], bg[i], o.offset(), max);
        return dst;
    }

    /** A 1D median of {@code size} values along y ({@code columns}) or x, rank (size-1)/2. */
    static float[] median1d(float[] src, int width, int height, int planes, int size,
            boolean columns, Border border, float outside) {
        int r = size / 2;
        float[] dst = new float[src.length];
        float[] window = new float[size];
        for (int z = 0; z < planes; z++)
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) {
                    for (int d = -r; d <= r; d++) {
                        int sy = columns ? ReferenceMedian.source(y + d, height, border) : y;
                        int sx = columns ? x : ReferenceMedian.source(x + d, width, border);
                        window[d + r] = (sx < 0 || sy < 0) ? outside
                                : src[(z * height + sy) * width + sx];
                    }
                    Arrays.sort(window);
                    dst[(z * height + y) * width + x] = window[r];
                }
        return dst;
    }

    /**
     * pixel - background + offset: for integer images the offset rounded to nearest (halves
     * away from zero) and the result clamped to 0..max; for floats in float.
     */
    static float subtract(float pixel, float background, double offset, int max) {
        if (max == 0) return (pixel - background) + (float) offset;
        long rounded = (long) Math.copySign(Math.floor(Math.abs(offset) + 0.5), offset);
        long v = (long) pixel - (long) background + rounded;
        return Math.max(0, Math.min(max, v));
    }
}
