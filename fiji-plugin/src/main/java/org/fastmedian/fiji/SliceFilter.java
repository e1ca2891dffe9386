package org.fastmedian.fiji;

import org.fastmedian.RunInfo;

/**
 * One slice (or a volume, its slices in one array) filtered into a new array of its own type,
 * as the in-place commands (Median, Convolve, Gaussian Blur, Background Subtraction, 3D Median)
 * do it: 8, 16 and 32-bit pixels in one library call, RGB pixels as their red, green and blue
 * channels, each an 8-bit image.
 */
final class SliceFilter {
    private SliceFilter() {}

    /** A command's library call on a whole slice, one per pixel type. */
    interface Calls {
        RunInfo run(byte[] in, byte[] out);

        RunInfo run(short[] in, short[] out);

        RunInfo run(float[] in, float[] out);
    }

    /** One slice's new pixels and what ran (the last call). */
    static final class Filtered {
        final Object pixels;
        final RunInfo ran;

        Filtered(Object pixels, RunInfo ran) {
            this.pixels = pixels;
            this.ran = ran;
        }
    }

    /**
     * The slice {@code pixels} ({@code byte[]}, {@code short[]}, {@code float[]} or RGB
     * {@code int[]}, {@code n} pixels) filtered by {@code calls} into a new array of its type.
     */
    static Filtered filter(Object pixels, int n, Calls calls) {
        if (pixels instanceof byte[]) {
            byte[] out = new byte[n];
            return new Filtered(out, calls.run((byte[]) pixels, out));
        }
        if (pixels instanceof short[]) {
            short[] out = new short[n];
            return new Filtered(out, calls.run((short[]) pixels, out));
        }
        if (pixels instanceof float[]) {
            float[] out = new float[n];
            return new Filtered(out, calls.run((float[]) pixels, out));
        }
        int[] rgb = (int[]) pixels;
        byte[][] in = new byte[3][n];
        byte[][] out = new byte[3][n];
        for (int i = 0; i < n; i++) {
            in[0][i] = (byte) (rgb[i] >> 16);
            in[1][i] = (byte) (rgb[i] >> 8);
            in[2][i] = (byte) rgb[i];
        }
        RunInfo ran = null;
        for (int k = 0; k < 3; k++) ran = calls.run(in[k], out[k]);
        int[] result = new int[n];
        for (int i = 0; i < n; i++)
            result[i] = 0xff000000 | (out[0][i] & 0xff) << 16 | (out[1][i] & 0xff) << 8
                    | (out[2][i] & 0xff);
        return new Filtered(result, ran);
    }
}
