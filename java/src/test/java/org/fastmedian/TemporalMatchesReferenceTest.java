package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The temporal median and its stream, every pixel type and both modes, on random stacks. */
class TemporalMatchesReferenceTest {
    enum Kind { U8, U16, F32 }

    // Odd, unequal sizes, so row and frame strides both matter.
    private static final int W = 7, H = 5, T = 23, FRAME = W * H, N = FRAME * T;

    // Offsets without halves: how a tie rounds is not what these tests check.
    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Kind kind : Kind.values())
            for (int window : new int[] {1, 2, 3, 4, 5, 9, 10, 22, 23}) {
                cases.add(Arguments.of(kind, window, TemporalMode.MEDIAN, 0.0));
                cases.add(Arguments.of(kind, window, TemporalMode.SUBTRACT,
                        kind == Kind.F32 ? 0.1 : 100.4));
                cases.add(Arguments.of(kind, window, TemporalMode.SUBTRACT,
                        kind == Kind.F32 ? -3.0 : -20.6));
            }
        return cases;
    }

    @ParameterizedTest(name = "{0} N={1} {2} {3}")
    @MethodSource("cases")
    void stackMatchesReference(Kind kind, int window, TemporalMode mode, double offset) {
        TemporalOptions options = TemporalOptions.of(window).mode(mode).offset(offset)
                .backend(Backend.CPU);
        float[] values = randomValues(kind, new Random(1000L * kind.ordinal() + window));
        float[] actual = run(kind, values, options);
        float[] expected = ReferenceTemporal.stack(values, W, H, T, window, mode, offset,
                max(kind));
        assertArrayEquals(canonicalBits(expected), rawBits(actual),
                "first index differs, at x + W*(y + H*t), W=" + W + " H=" + H);
    }

    @ParameterizedTest(name = "{0} N={1} {2} {3}")
    @MethodSource("cases")
    void streamMatchesReference(Kind kind, int window, TemporalMode mode, double offset) {
        TemporalOptions options = TemporalOptions.of(window).mode(mode).offset(offset)
                .backend(Backend.CPU);
        float[] values = randomValues(kind, new Random(77L * kind.ordinal() + window));
        float[] actual = new float[N];
        int bits = kind == Kind.U8 ? 8 : kind == Kind.U16 ? 16 : 32;
        try (TemporalMedianStream stream = new TemporalMedianStream(bits, W, H, options)) {
            assertEquals(Backend.CPU, stream.runInfo().backend());
            for (int t = 0; t < T; t++) {
                float[] frame = new float[FRAME];
                System.arraycopy(values, t * FRAME, frame, 0, FRAME);
                float[] out = push(stream, kind, frame);
                System.arraycopy(out, 0, actual, t * FRAME, FRAME);
                assertEquals(t + 1, stream.framesPushed());
            }
        }
        float[] expected = ReferenceTemporal.stream(values, W, H, T, window, mode, offset,
                max(kind));
        assertArrayEquals(canonicalBits(expected), rawBits(actual),
                "first index differs, at x + W*(y + H*t), W=" + W + " H=" + H);
    }

    private static int max(Kind kind) {
        return kind == Kind.U8 ? 255 : kind == Kind.U16 ? 65535 : 0;
    }

    // Full-range integers (16-bit values above 32767 are negative shorts) with ties from a short
    // list in the first row, so subtract clamps at both ends; floats with every special value
    // the ordering defines, including NaNs with payloads and sign bits, and -0.0 beside +0.0.
    static float[] randomValues(Kind kind, Random rnd) {
        float[] specials = {Float.NaN, Float.intBitsToFloat(0x7fc01234),
            Float.intBitsToFloat(0xffc00000), Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            -0.0f, 0.0f};
        float[] ties = kind == Kind.F32 ? new float[] {-1.5f, 0f, 2.25f}
                : new float[] {0, 1, 1, kind == Kind.U8 ? 255 : 65535};
        float[] values = new float[N];
        for (int i = 0; i < N; i++) {
            if (i % FRAME < W) {
                values[i] = ties[rnd.nextInt(ties.length)];
                continue;
            }
            switch (kind) {
                case U8: values[i] = rnd.nextInt(256); break;
                case U16: values[i] = rnd.nextInt(65536); break;
                default:
                    values[i] = rnd.nextInt(8) == 0 ? specials[rnd.nextInt(specials.length)]
                            : (float) (rnd.nextGaussian() * 100);
            }
        }
        return values;
    }

    private static float[] run(Kind kind, float[] values, TemporalOptions options) {
        float[] out = new float[N];
        RunInfo info;
        switch (kind) {
            case U8: {
                byte[] src = new byte[N], dst = new byte[N];
                for (int i = 0; i < N; i++) src[i] = (byte) values[i];
                info = FastMedian.temporalMedian(src, dst, W, H, T, options);
                for (int i = 0; i < N; i++) out[i] = dst[i] & 0xff;
                break;
            }
            case U16: {
                short[] src = new short[N], dst = new short[N];
                for (int i = 0; i < N; i++) src[i] = (short) values[i];
                info = FastMedian.temporalMedian(src, dst, W, H, T, options);
                for (int i = 0; i < N; i++) out[i] = dst[i] & 0xffff;
                break;
            }
            default:
                info = FastMedian.temporalMedian(values.clone(), out, W, H, T, options);
        }
        assertEquals(Backend.CPU, info.backend());
        return out;
    }

    private static float[] push(TemporalMedianStream stream, Kind kind, float[] frame) {
        float[] out = new float[FRAME];
        switch (kind) {
            case U8: {
                byte[] in = new byte[FRAME], dst = new byte[FRAME];
                for (int i = 0; i < FRAME; i++) in[i] = (byte) frame[i];
                stream.push(in, dst);
                for (int i = 0; i < FRAME; i++) out[i] = dst[i] & 0xff;
                return out;
            }
            case U16: {
                short[] in = new short[FRAME], dst = new short[FRAME];
                for (int i = 0; i < FRAME; i++) in[i] = (short) frame[i];
                stream.push(in, dst);
                for (int i = 0; i < FRAME; i++) out[i] = dst[i] & 0xffff;
                return out;
            }
            default:
                stream.push(frame.clone(), out);
                return out;
        }
    }

    // The library writes every NaN result as 0x7FC00000, which is floatToIntBits' NaN.
    static int[] canonicalBits(float[] values) {
        int[] bits = new int[values.length];
        for (int i = 0; i < values.length; i++) bits[i] = Float.floatToIntBits(values[i]);
        return bits;
    }

    static int[] rawBits(float[] values) {
        int[] bits = new int[values.length];
        for (int i = 0; i < values.length; i++) bits[i] = Float.floatToRawIntBits(values[i]);
        return bits;
    }
}
