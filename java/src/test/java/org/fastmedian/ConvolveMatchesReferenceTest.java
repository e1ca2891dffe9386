package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The convolution on the CPU equals {@link ReferenceConvolve} bit for bit: every type, output
 * type, border, generic, separable and Gaussian masks, normalisation; and the Gaussian's mask
 * follows scipy's rule.
 */
class ConvolveMatchesReferenceTest {
    private static final int W = 23, H = 11, P = 2, N = W * H * P;

    private static float[] mask(int n, long seed) {
        Random r = new Random(seed);
        float[] m = new float[n];
        for (int i = 0; i < n; i++) m[i] = (r.nextInt(2001) - 600) / 997f;
        return m;
    }

    private static ConvolveOptions[] cases(long seed) {
        return new ConvolveOptions[] {
            ConvolveOptions.kernel(mask(9, seed), 3, 3),
            ConvolveOptions.kernel(mask(15, seed + 1), 5, 3).normalize(true),
            ConvolveOptions.kernel(mask(7, seed + 2), 1, 7),
            ConvolveOptions.separable(mask(5, seed + 3), mask(9, seed + 4)),
            ConvolveOptions.gaussian(1.5),
        };
    }

    private static float[] reference(float[] src, ConvolveOptions o, int inputMax, int max) {
        float[] row = o.rowMask(), column = o.columnMask();
        if (o.kind() == ConvolveOptions.GAUSSIAN) {
            row = ConvolveOptions.gaussianMask(o.sigma());
            column = row;
        }
        return ReferenceConvolve.convolve(src, W, H, P, o.mask(), o.maskWidth(), o.maskHeight(),
                row, column, o.isNormalized(), o.border(), o.cval(), inputMax, max);
    }

    @Test
    void bytesShortsAndFloatsEveryBorder() {
        Random r = new Random(3);
        byte[] b = new byte[N];
        short[] s = new short[N];
        float[] f = new float[N];
        r.nextBytes(b);
        for (int i = 0; i < N; i++) {
            s[i] = (short) r.nextInt(65536);
            f[i] = (float) (r.nextGaussian() * 1000);
        }
        float[] bf = new float[N], sf = new float[N];
        for (int i = 0; i < N; i++) {
            bf[i] = b[i] & 0xFF;
            sf[i] = s[i] & 0xFFFF;
        }
        long seed = 10;
        for (Border border : Border.values()) {
            for (ConvolveOptions o : cases(seed++)) {
                o.border(border).cval(-3.6).backend(Backend.CPU);
                String what = o.toString();
                byte[] b8 = new byte[N];
                FastMedian.convolve(b, b8, W, H, P, o);
                assertArrayEquals(toBytes(reference(bf, o, 255, 255)), b8, what + " u8");
                float[] bOut = new float[N];
                FastMedian.convolve(b, bOut, W, H, P, o);
                assertBits(reference(bf, o, 255, 0), bOut, what + " u8 -> f32");
                short[] s16 = new short[N];
                FastMedian.convolve(s, s16, W, H, P, o);
                assertArrayEquals(toShorts(reference(sf, o, 65535, 65535)), s16, what + " u16");
                float[] sOut = new float[N];
                FastMedian.convolve(s, sOut, W, H, P, o);
                assertBits(reference(sf, o, 65535, 0), sOut, what + " u16 -> f32");
                float[] fOut = new float[N];
                FastMedian.convolve(f, fOut, W, H, P, o);
                assertBits(reference(f, o, 0, 0), fOut, what + " f32");
            }
        }
    }

    @Test
    void gaussianBlurIsTheGaussianMask() {
        float[] m = ConvolveOptions.gaussianMask(3.0);
        assertEquals(25, m.length);
        double sum = 0;
        for (float w : m) sum += w;
        assertEquals(1.0, sum, 1e-6);
        assertEquals(0.13298454f, m[12], 1e-7f);  // scipy: 0.1329845385507837
        assertEquals(81, ConvolveOptions.gaussianMask(10).length);
        short[] src = new short[W * H], a = new short[W * H], b = new short[W * H];
        for (int i = 0; i < src.length; i++) src[i] = (short) (i * 37);
        FastMedian.gaussianBlur(src, a, W, H, 1, 2.0);
        FastMedian.convolve(src, b, W, H, 1, ConvolveOptions.separable(
                ConvolveOptions.gaussianMask(2.0), ConvolveOptions.gaussianMask(2.0)));
        assertArrayEquals(b, a);
    }

    private static void assertBits(float[] want, float[] got, String what) {
        int[] w = new int[want.length], g = new int[got.length];
        for (int i = 0; i < want.length; i++) {
            w[i] = Float.floatToRawIntBits(want[i]);
            g[i] = Float.floatToRawIntBits(got[i]);
        }
        assertArrayEquals(w, g, what);
    }

    private static byte[] toBytes(float[] v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) out[i] = (byte) (int) v[i];
        return out;
    }

    private static short[] toShorts(float[] v) {
        short[] out = new short[v.length];
        for (int i = 0; i < v.length; i++) out[i] = (short) (int) v[i];
        return out;
    }
}
