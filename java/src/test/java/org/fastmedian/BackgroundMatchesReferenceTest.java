package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The background, every pixel type, window, method and border mode and both outputs, against
 * ReferenceBackground on random stacks.
 */
class BackgroundMatchesReferenceTest {
    enum Kind { U8, U16, F32 }

    // Odd, unequal sizes and two planes, so row, column and plane strides all matter; the
    // largest windows are wider than the image, so borders extend more than once.
    private static final int W = 37, H = 23, P = 2, N = W * H * P;

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Kind kind : Kind.values())
            for (Border border : Border.values()) {
                for (int size : new int[] {1, 3, 9, 31, 65}) {
                    cases.add(Arguments.of(kind, border, BackgroundMethod.EXACT, "square",
                            (double) size));
                    cases.add(Arguments.of(kind, border, BackgroundMethod.SEPARABLE, "square",
                            (double) size));
                }
                for (double r : new double[] {2, 5.5})
                    cases.add(Arguments.of(kind, border, BackgroundMethod.EXACT, "circle", r));
            }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1} {2} {3} {4}")
    @MethodSource("cases")
    void matchesReference(Kind kind, Border border, BackgroundMethod method, String shape,
            double extent) {
        // 77.4 rounds to 77 for integer images; offsets with halves round away from zero.
        double cval = kind == Kind.F32 ? -1.5 : 77.4;
        float outside = kind == Kind.F32 ? (float) cval : 77;
        double offset = kind == Kind.U8 ? 20.5 : kind == Kind.U16 ? -300.5 : 0.1;
        float[] values = randomValues(kind, new Random(31L * kind.ordinal() + (long) (extent * 8)
                + 1000L * method.ordinal()));
        for (BackgroundOutput output : BackgroundOutput.values()) {
            BackgroundOptions options = (shape.equals("circle") ? BackgroundOptions.circle(extent)
                    : BackgroundOptions.square((int) extent)).method(method).output(output)
                    .offset(offset).border(border).cval(cval).backend(Backend.CPU);
            float[] actual = run(kind, values, options);
            float[] expected = ReferenceBackground.background(values, W, H, P, options, outside,
                    max(kind));
            assertArrayEquals(TemporalMatchesReferenceTest.canonicalBits(expected),
                    TemporalMatchesReferenceTest.rawBits(actual), output
                    + ": first index differs, at x + W*(y + H*z), W=" + W + " H=" + H);
        }
    }

    @Test
    void defaultsAreExactSubtractOffset0Replicate() {
        BackgroundOptions o = BackgroundOptions.square(65);
        assertEquals(BackgroundMethod.EXACT, o.method());
        assertEquals(BackgroundOutput.SUBTRACT, o.output());
        assertEquals(0.0, o.offset());
        assertEquals(Border.REPLICATE, o.border());
        assertEquals(Backend.AUTO, o.backend());
        assertEquals("background exact square 65x65, subtract offset 0.0, border replicate, "
                + "backend auto", o.toString());
        float[] values = randomValues(Kind.U16, new Random(5));
        float[] actual = run(Kind.U16, values, BackgroundOptions.square(9).backend(Backend.CPU));
        float[] expected = ReferenceBackground.background(values, W, H, P,
                BackgroundOptions.square(9), 0, 65535);
        assertArrayEquals(expected, actual);
    }

    @Test
    void integerOffsetsRoundHalvesAwayFromZeroAndClamp() {
        float[] values = randomValues(Kind.U8, new Random(9));
        for (double offset : new double[] {2.5, -2.5, 0.5, -0.5, 1e9, -1e9}) {
            BackgroundOptions o = BackgroundOptions.square(5).offset(offset).backend(Backend.CPU);
            float[] actual = run(Kind.U8, values, o);
            assertArrayEquals(ReferenceBackground.background(values, W, H, P, o, 0, 255), actual,
                    "offset " + offset);
        }
    }

    private static int max(Kind kind) {
        return kind == Kind.U8 ? 255 : kind == Kind.U16 ? 65535 : 0;
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

    private static float[] run(Kind kind, float[] values, BackgroundOptions options) {
        float[] out = new float[N];
        RunInfo info;
        switch (kind) {
            case U8: {
                byte[] src = new byte[N], dst = new byte[N];
                for (int i = 0; i < N; i++) src[i] = (byte) values[i];
                info = FastMedian.background(src, dst, W, H, P, options);
                for (int i = 0; i < N; i++) out[i] = dst[i] & 0xff;
                break;
            }
            case U16: {
                short[] src = new short[N], dst = new short[N];
                for (int i = 0; i < N; i++) src[i] = (short) values[i];
                info = FastMedian.background(src, dst, W, H, P, options);
                for (int i = 0; i < N; i++) out[i] = dst[i] & 0xffff;
                break;
            }
            default:
                info = FastMedian.background(values.clone(), out, W, H, P, options);
        }
        assertEquals(options.backend() == Backend.CPU ? Backend.CPU : info.backend(),
                info.backend());
        return out;
    }
}
