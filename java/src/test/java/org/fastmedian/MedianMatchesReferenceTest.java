package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every pixel type, window and border mode against ReferenceMedian, on random stacks. */
class MedianMatchesReferenceTest {
    enum Kind { U8, U16, F32 }

    // Odd, unequal sizes and two planes, so row, column and plane strides all matter; the
    // largest windows are wider than the image, so borders extend more than once.
    private static final int W = 23, H = 17, P = 2, N = W * H * P;

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Kind kind : Kind.values())
            for (Border border : Border.values()) {
                for (int size : new int[] {1, 3, 5, 9, 41})
                    cases.add(Arguments.of(kind, border, "square", (double) size));
                for (double r : new double[] {0.5, 1, 1.5, 2, 2.5, 3, 5, 12})
                    cases.add(Arguments.of(kind, border, "circle", r));
            }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("cases")
    void matchesReference(Kind kind, Border border, String shape, double extent) {
        boolean circle = shape.equals("circle");
        MedianOptions options = circle ? MedianOptions.circle(extent)
                : MedianOptions.square((int) extent);
        // 77.4 rounds to 77 for integer images.
        double cval = kind == Kind.F32 ? -1.5 : 77.4;
        options.border(border).cval(cval);
        float[] values = randomValues(kind, new Random(31L * kind.ordinal() + (long) (extent * 8)));

        float[] actual = run(kind, values, options);

        int[] window = circle ? ReferenceMedian.circle(extent)
                : ReferenceMedian.square((int) extent);
        float outside = kind == Kind.F32 ? (float) cval : Math.round(cval);
        float[] expected = ReferenceMedian.median(values, W, H, P, window, border, outside);
        assertArrayEquals(canonicalBits(expected), rawBits(actual),
                "first index differs, at x + W*(y + H*z), W=" + W + " H=" + H);
    }

    // Full-range integers (16-bit values above 32767 are negative shorts); floats with every
    // special value the ordering defines, including NaNs with payloads and sign bits.
    private static float[] randomValues(Kind kind, Random rnd) {
        float[] specials = {Float.NaN, Float.intBitsToFloat(0x7fc01234),
            Float.intBitsToFloat(0xffc00000), Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            -0.0f, 0.0f};
        float[] values = new float[N];
        for (int i = 0; i < N; i++) {
            switch (kind) {
                case U8: values[i] = rnd.nextInt(256); break;
                case U16: values[i] = rnd.nextInt(65536); break;
                default:
                    values[i] = rnd.nextInt(10) == 0 ? specials[rnd.nextInt(specials.length)]
                            : (float) (rnd.nextGaussian() * 100);
            }
        }
        return values;
    }

    private static float[] run(Kind kind, float[] values, MedianOptions options) {
        float[] out = new float[N];
        switch (kind) {
            case U8: {
                byte[] src = new byte[N], dst = new byte[N];
                for (int i = 0; i < N; i++) src[i] = (byte) values[i];
                FastMedian.median(src, dst, W, H, P, options);
                for (int i = 0; i < N; i++) out[i] = dst[i] & 0xff;
                return out;
            }
            case U16: {
                short[] src = new short[N], dst = new short[N];
                for (int i = 0; i < N; i++) src[i] = (short) values[i];
                FastMedian.median(src, dst, W, H, P, options);
                for (int i = 0; i < N; i++) out[i] = dst[i] & 0xffff;
                return out;
            }
            default:
                FastMedian.median(values.clone(), out, W, H, P, options);
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
