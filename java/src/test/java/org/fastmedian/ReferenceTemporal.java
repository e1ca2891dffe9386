package org.fastmedian;

import java.util.Arrays;

/**
 * A slow, plain temporal median to check the library against. Pixels are floats (exact for 8
 * and 16-bit values); Arrays.sort orders floats -0.0 before +0.0 and NaN after +Inf, the
 * library's order. {@code max} is the integer type's largest value, or 0 for float pixels.
 */
final class ReferenceTemporal {
    private ReferenceTemporal() {}

    /** The first frame of output frame t's window: t - N/2, moved inward to [0, planes - N]. */
    static int windowStart(int t, int planes, int window) {
        return Math.min(Math.max(t - window / 2, 0), planes - window);
    }

    static float[] stack(float[] src, int width, int height, int planes, int window,
            TemporalMode mode, double offset, int max) {
        int frame = width * height;
        float[] dst = new float[src.length];
        float[] values = new float[window];
        for (int t = 0; t < planes; t++) {
            int s = windowStart(t, planes, window);
            for (int i = 0; i < frame; i++) {
                for (int k = 0; k < window; k++) values[k] = src[(s + k) * frame + i];
                dst[t * frame + i] = result(src[t * frame + i], values, mode, offset, max);
            }
        }
        return dst;
    }

    /** Output k of a stream: over the last min(k + 1, N) frames pushed up to frame k. */
    static float[] stream(float[] src, int width, int height, int planes, int window,
            TemporalMode mode, double offset, int max) {
        int frame = width * height;
        float[] dst = new float[src.length];
        for (int t = 0; t < planes; t++) {
            int n = Math.min(t + 1, window);
            float[] values = new float[n];
            for (int i = 0; i < frame; i++) {
                for (int k = 0; k < n; k++) values[k] = src[(t - n + 1 + k) * frame + i];
                dst[t * frame + i] = result(src[t * frame + i], values, mode, offset, max);
            }
        }
        return dst;
    }

    /** Sorts {@code values}; the median of rank (n-1)/2, or frame - median + offset. */
    static float result(float frame, float[] values, TemporalMode mode, double offset, int max) {
        Arrays.sort(values);
        float median = values[(values.length - 1) / 2];
        if (mode == TemporalMode.MEDIAN) return median;
        if (max == 0) return (frame - median) + (float) offset;
        long v = (long) frame - (long) median + Math.round(offset);
        return Math.max(0, Math.min(max, v));
    }
}
