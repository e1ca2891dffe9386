package org.fastmedian;

/**
 * A slow, plain convolution to check the library against, written from the documented
 * semantics with the mask as given: out(x, y) = sum over j, i of mask[j][i] * in(x + rx - i,
 * y + ry - j), summed with Math.fma in float from 0 over the input rows top to bottom and left to
 * right (separable: the column pass into t first, then the row pass). Pixels are floats (exact
 * for 8 and 16-bit values); {@code max} is the integer output's largest value, or 0 for float
 * output, which is returned as floats too.
 */
final class ReferenceConvolve {
    private ReferenceConvolve() {}

    /** Where coordinate i of a line of n pixels reads from, or -1 for the constant. */
    static int fold(int i, int n, Border border) {
        while (i < 0 || i >= n) {
            switch (border) {
                case REPLICATE: return i < 0 ? 0 : n - 1;
                case CONSTANT: return -1;
                case WRAP: i = i < 0 ? i + n : i - n; break;
                case REFLECT: i = i < 0 ? -i - 1 : 2 * n - 1 - i; break;
                case MIRROR:
                    if (n == 1) return 0;
                    i = i < 0 ? -i : 2 * n - 2 - i;
                    break;
                default: throw new IllegalArgumentException();
            }
        }
        return i;
    }

    static float[] normalized(float[] mask, boolean normalize) {
        if (!normalize) return mask;
        double sum = 0;
        for (float w : mask) sum += w;
        float[] out = new float[mask.length];
        for (int i = 0; i < mask.length; i++) out[i] = (float) (mask[i] / sum);
        return out;
    }

    /** The constant border's value: cval rounded and clamped for integer images. */
    static float outside(double cval, int inputMax) {
        if (inputMax == 0) return (float) cval;
        return (float) Math.min(Math.max(Math.round(cval), 0L), (long) inputMax);
    }

    static float[] convolve(float[] src, int width, int height, int planes, float[] mask, int kw,
            int kh, float[] row, float[] column, boolean normalize, Border border, double cval,
            int inputMax, int max) {
        boolean separable = mask == null;
        if (separable) {
            kw = row.length;
            kh = column.length;
        }
        float[] m = separable ? null : normalized(mask, normalize);
        float[] r = separable ? normalized(row, normalize) : null;
        float[] c = separable ? normalized(column, normalize) : null;
        float out = outside(cval, inputMax);
        int rx = kw / 2, ry = kh / 2, frame = width * height;
        float[] dst = new float[src.length];
        for (int z = 0; z < planes; z++)
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) {
                    float sum = 0f;
                    if (!separable) {
                        for (int j = kh - 1; j >= 0; j--)
                            for (int i = kw - 1; i >= 0; i--)
                                sum = Math.fma(m[j * kw + i],
                                        at(src, z, x + rx - i, y + ry - j, width, height, border, out), sum);
                    } else {
                        for (int i = kw - 1; i >= 0; i--) {
                            float t = 0f;
                            for (int j = kh - 1; j >= 0; j--)
                                t = Math.fma(c[j], at(src, z, x + rx - i, y + ry - j, width, height, border, out), t);
                            sum = Math.fma(r[i], t, sum);
                        }
                    }
                    dst[z * frame + y * width + x] = result(sum, max);
                }
        return dst;
    }

    private static float at(float[] src, int z, int x, int y, int width, int height, Border border,
            float outside) {
        int sx = fold(x, width, border), sy = fold(y, height, border);
        return sx < 0 || sy < 0 ? outside : src[z * width * height + sy * width + sx];
    }

    /** Integer outputs: clamp (NaN to 0), then round halves up; floats: NaN as 0x7FC00000. */
    static float result(float v, int max) {
        if (max == 0) return Float.isNaN(v) ? Float.intBitsToFloat(0x7FC00000) : v;
        if (Float.isNaN(v)) return 0f;
        return Math.round(Math.min(Math.max(v, 0f), (float) max));
    }
}
