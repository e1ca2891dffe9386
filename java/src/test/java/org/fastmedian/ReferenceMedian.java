package org.fastmedian;

import java.util.Arrays;

/**
 * A slow, plain median to check the library against. Pixels are floats (exact for 8 and 16-bit
 * values); Arrays.sort orders floats -0.0 before +0.0 and NaN after +Inf, the library's order.
 * Windows are given as the half-width of each row, top to bottom.
 */
final class ReferenceMedian {
    private ReferenceMedian() {}

    static int[] square(int size) {
        int[] halfWidths = new int[size];
        Arrays.fill(halfWidths, size / 2);
        return halfWidths;
    }

    /** ImageJ's circular mask (RankFilters.makeLineRadii, with its two radius adjustments). */
    static int[] circle(double radius) {
        if (radius >= 1.5 && radius < 1.75) radius = 1.75;
        else if (radius >= 2.5 && radius < 2.85) radius = 2.85;
        int r2 = (int) (radius * radius) + 1;
        int kRadius = (int) Math.sqrt(r2 + 1e-10);
        int[] halfWidths = new int[2 * kRadius + 1];
        for (int dy = -kRadius; dy <= kRadius; dy++)
            halfWidths[dy + kRadius] = (int) Math.sqrt(r2 - dy * dy + 1e-10);
        return halfWidths;
    }

    /** The median of every plane; {@code outside} is the value read outside for CONSTANT. */
    static float[] median(float[] src, int width, int height, int planes, int[] halfWidths,
            Border border, float outside) {
        int ry = halfWidths.length / 2;
        float[] dst = new float[src.length];
        for (int z = 0; z < planes; z++) {
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    int n = 0;
                    for (int hw : halfWidths) n += 2 * hw + 1;
                    float[] window = new float[n];
                    n = 0;
                    for (int dy = -ry; dy <= ry; dy++) {
                        int sy = source(y + dy, height, border);
                        int hw = halfWidths[dy + ry];
                        for (int dx = -hw; dx <= hw; dx++) {
                            int sx = source(x + dx, width, border);
                            window[n++] = (sx < 0 || sy < 0) ? outside
                                    : src[(z * height + sy) * width + sx];
                        }
                    }
                    Arrays.sort(window);
                    dst[(z * height + y) * width + x] = window[(n - 1) / 2];
                }
            }
        }
        return dst;
    }

    /** Where coordinate i of a line of n pixels reads from; -1 for the constant. */
    static int source(int i, int n, Border border) {
        switch (border) {
            case REPLICATE:
                return Math.max(0, Math.min(n - 1, i));
            case CONSTANT:
                return i >= 0 && i < n ? i : -1;
            case WRAP:
                return Math.floorMod(i, n);
            case REFLECT:  // fold at the pixel edges: -1 -> 0, n -> n-1
                while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
                return i;
            case MIRROR:  // fold at the pixel centres: -1 -> 1, n -> n-2
                if (n == 1) return 0;
                while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
                return i;
            default:
                throw new IllegalArgumentException(String.valueOf(border));
        }
    }
}
