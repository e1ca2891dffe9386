package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every pixel type, 3D window and border mode against ReferenceMedian3D, on random volumes. */
class Median3DMatchesReferenceTest {
    enum Kind { U8, U16, F32 }

    // Odd, unequal sides; the deepest windows reach past the volume along z (and the widest
    // along x), so borders extend more than once.
    private static final int W = 11, H = 9, P = 6, N = W * H * P;

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        int[][] boxes = {{1, 1, 1}, {3, 3, 3}, {5, 3, 1}, {1, 5, 3}, {3, 5, 9}, {13, 1, 3}};
        double[][] ellipsoids = {{1, 1, 1}, {2, 2, 2}, {1.5, 2, 0.5}, {3, 1, 2.5}, {0, 0, 4},
            {2.2, 2.2, 1}};
        for (Kind kind : Kind.values())
            for (Border border : Border.values()) {
                for (int[] b : boxes)
                    cases.add(Arguments.of(kind, border, Median3DOptions.box(b[0], b[1], b[2])));
                for (double[] r : ellipsoids)
                    cases.add(Arguments.of(kind, border,
                            Median3DOptions.ellipsoid(r[0], r[1], r[2])));
            }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void matchesReference(Kind kind, Border border, Median3DOptions options) {
        // 77.4 rounds to 77 for integer images.
        double cval = kind == Kind.F32 ? -1.5 : 77.4;
        options.border(border).cval(cval);
        float[] values = randomValues(kind, new Random(17L * kind.ordinal() + options.sizeX()
                + (long) (options.radiusZ() * 8)));

        float[] actual = run(kind, values, options);

        float outside = kind == Kind.F32 ? (float) cval : Math.round(cval);
        float[] expected = ReferenceMedian3D.median(values, W, H, P, options.isEllipsoid()
                ? ReferenceMedian3D.ellipsoid(options.radiusX(), options.radiusY(),
                        options.radiusZ())
                : ReferenceMedian3D.box(options.sizeX(), options.sizeY(), options.sizeZ()),
                border, outside);
        assertArrayEquals(canonicalBits(expected), rawBits(actual),
                "first index differs, at x + W*(y + H*z), W=" + W + " H=" + H);
    }

    // Integers with many ties (a few values) or full range; floats with every special value the
    // ordering defines, NaNs with payloads and sign bits included, a fifth of them NaN so that
    // some windows are mostly NaN.
    private static float[] randomValues(Kind kind, Random rnd) {
        float[] specials = {Float.NaN, Float.intBitsToFloat(0x7fc01234),
            Float.intBitsToFloat(0xffc00000), Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            -0.0f, 0.0f};
        float[] values = new float[N];
        for (int i = 0; i < N; i++) {
            switch (kind) {
                case U8: values[i] = rnd.nextInt(4) * 85; break;
                case U16: values[i] = rnd.nextInt(65536); break;
                default:
                    values[i] = rnd.nextInt(5) == 0 ? specials[rnd.nextInt(specials.length)]
                            : (float) (rnd.nextGaussian() * 100);
            }
        }
        return values;
    }

    private static float[] run(Kind kind, float[] values, Median3DOptions options) {
        float[] out = new float[N];
        switch (kind) {
            case U8: {
                byte[] src = new byte[N], dst = new byte[N];
                for (int i = 0; i < N; i++) src[i] = (byte) values[i];
                FastMedian.median3d(src, dst, W, H, P, options);
                for (int i = 0; i < N; i++) out[i] = dst[i] & 0xff;
                return out;
            }
            case U16: {
                short[] src = new short[N], dst = new short[N];
                for (int i = 0; i < N; i++) src[i] = (short) values[i];
                FastMedian.median3d(src, dst, W, H, P, options);
                for (int i = 0; i < N; i++) out[i] = dst[i] & 0xffff;
                return out;
            }
            default:
                FastMedian.median3d(values.clone(), out, W, H, P, options);
                return out;
        }
    }

    // The library writes every NaN result as 0x7FC00000, which is floatToIntBits' NaN.
    private static int[] canonicalBits(float[] values) {
        int[] bits = new int[values.length];
        for (int i = 0; i < values.length; i++) bits[i] = Float.floatToIntBits(values[i]);
        return bits;
    }

    private static int[] rawBits(float[] values) {
        int[] bits = new int[values.length];
        for (int i = 0; i < values.length; i++) bits[i] = Float.floatToRawIntBits(values[i]);
        return bits;
    }
}
