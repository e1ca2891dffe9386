package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad temporal calls fail with invalid_argument, name the parameter, and write neither array;
 * a stream refuses frames of the wrong type or size and every call once closed.
 */
class TemporalErrorsTest {
    private static final int W = 8, H = 6, P = 5, N = W * H * P;

    private final byte[] src = pattern(N);
    private final byte[] dst = new byte[N];

    @Test
    void nullSrc() {
        assertRejected("src is null",
                () -> FastMedian.temporalMedian(null, dst, W, H, P, window3()));
    }

    @Test
    void nullDst() {
        assertRejected("dst is null",
                () -> FastMedian.temporalMedian(src, null, W, H, P, window3()));
    }

    @Test
    void shortSrc() {
        assertRejected("src has " + (N - 1) + " elements but width*height*planes is " + N,
                () -> FastMedian.temporalMedian(pattern(N - 1), dst, W, H, P, window3()));
    }

    @Test
    void shortDst16() {
        assertRejected("dst has " + (N - 1) + " elements", () -> FastMedian.temporalMedian(
                new short[N], new short[N - 1], W, H, P, window3()));
    }

    @Test
    void dstIsSrc() {
        assertRejected("dst is the same array as src",
                () -> FastMedian.temporalMedian(src, src, W, H, P, window3()));
    }

    @Test
    void zeroPlanes() {
        assertRejected("planes must be at least 1, got 0",
                () -> FastMedian.temporalMedian(new byte[0], new byte[0], W, H, 0, window3()));
    }

    @Test
    void zeroWindow() {
        assertRejected("window",
                () -> FastMedian.temporalMedian(src, dst, W, H, P, TemporalOptions.of(0)));
    }

    @Test
    void negativeWindow() {
        assertRejected("window",
                () -> FastMedian.temporalMedian(src, dst, W, H, P, TemporalOptions.of(-3)));
    }

    @Test
    void windowAboveTheMaximum() {
        assertRejected("window", () -> FastMedian.temporalMedian(src, dst, W, H, P,
                TemporalOptions.of(TemporalOptions.MAX_WINDOW + 1)));
    }

    @Test
    void windowLongerThanTheStack() {
        assertRejected("window",
                () -> FastMedian.temporalMedian(src, dst, W, H, P, TemporalOptions.of(P + 1)));
    }

    @Test
    void nullOptions() {
        assertRejected("options is null",
                () -> FastMedian.temporalMedian(src, dst, W, H, P, null));
    }

    @Test
    void nullMode() {
        assertRejected("options.mode is null",
                () -> FastMedian.temporalMedian(src, dst, W, H, P, window3().mode(null)));
    }

    @Test
    void nullBackend() {
        assertRejected("options.backend is null",
                () -> FastMedian.temporalMedian(src, dst, W, H, P, window3().backend(null)));
    }

    @Test
    void nanOffset() {
        assertRejected("offset", () -> FastMedian.temporalMedian(src, dst, W, H, P,
                window3().mode(TemporalMode.SUBTRACT).offset(Double.NaN)));
    }

    @Test
    void infiniteOffset() {
        assertRejected("offset", () -> FastMedian.temporalMedian(src, dst, W, H, P,
                window3().mode(TemporalMode.SUBTRACT).offset(Double.NEGATIVE_INFINITY)));
    }

    @Test
    void hugeOffsetFloat() {
        float[] in = new float[N];
        in[3] = 42;
        assertRejected("offset", () -> FastMedian.temporalMedian(in, new float[N], W, H, P,
                window3().mode(TemporalMode.SUBTRACT).offset(2e9)));
        assertEquals(42f, in[3]);
    }

    @Test
    void negativeDevice() {
        assertRejected("device",
                () -> FastMedian.temporalMedian(src, dst, W, H, P, window3().device(-1)));
    }

    @Test
    void streamBitDepth() {
        FastMedianException e = assertThrows(FastMedianException.class,
                () -> new TemporalMedianStream(24, W, H, window3()));
        assertInvalid(e, "bitDepth must be 8, 16 or 32, got 24");
    }

    @Test
    void streamZeroHeight() {
        FastMedianException e = assertThrows(FastMedianException.class,
                () -> new TemporalMedianStream(8, W, 0, window3()));
        assertInvalid(e, "height must be at least 1, got 0");
    }

    @Test
    void streamWindow() {
        assertInvalid(assertThrows(FastMedianException.class,
                () -> new TemporalMedianStream(16, W, H, TemporalOptions.of(0))), "window");
    }

    @Test
    void streamNullOptionsAndMode() {
        assertInvalid(assertThrows(FastMedianException.class,
                () -> new TemporalMedianStream(16, W, H, null)), "options is null");
        assertInvalid(assertThrows(FastMedianException.class,
                () -> new TemporalMedianStream(16, W, H, window3().mode(null))),
                "options.mode is null");
    }

    @Test
    void streamRefusesOtherFrames() {
        try (TemporalMedianStream stream = new TemporalMedianStream(8, W, H, window3())) {
            byte[] out = pattern(W * H);
            byte[] before = out.clone();
            assertInvalid(assertThrows(FastMedianException.class,
                    () -> stream.push(new short[W * H], new short[W * H])),
                    "frame is 16-bit but the stream takes 8-bit frames");
            assertInvalid(assertThrows(FastMedianException.class,
                    () -> stream.push(new byte[W * H - 1], out)),
                    "frame has " + (W * H - 1) + " elements but width*height is " + (W * H));
            assertInvalid(assertThrows(FastMedianException.class,
                    () -> stream.push(new byte[W * H], new byte[W * H + 1])), "out has ");
            assertInvalid(assertThrows(FastMedianException.class,
                    () -> stream.push(null, out)), "frame is null");
            assertInvalid(assertThrows(FastMedianException.class,
                    () -> stream.push(new byte[W * H], null)), "out is null");
            assertArrayEquals(before, out, "out was written by a failed push");
            assertEquals(0, stream.framesPushed(), "a refused frame was counted");
        }
    }

    @Test
    void closedStream() {
        TemporalMedianStream stream = new TemporalMedianStream(32, W, H, window3());
        float[] frame = new float[W * H];
        stream.push(frame, new float[W * H]);
        stream.close();
        stream.close();  // harmless
        assertInvalid(assertThrows(FastMedianException.class,
                () -> stream.push(frame, new float[W * H])), "the stream is closed");
        assertInvalid(assertThrows(FastMedianException.class, stream::framesPushed),
                "the stream is closed");
    }

    @Test
    void streamPushInPlace() {
        try (TemporalMedianStream stream = new TemporalMedianStream(16, W, H,
                window3().mode(TemporalMode.SUBTRACT).offset(10))) {
            short[] frame = new short[W * H];
            java.util.Arrays.fill(frame, (short) 500);
            stream.push(frame, frame);  // one frame: frame - itself + 10
            for (short v : frame) assertEquals(10, v);
        }
    }

    private void assertRejected(String expectedInMessage, Executable call) {
        byte[] srcBefore = src.clone();
        byte[] dstBefore = dst.clone();
        assertInvalid(assertThrows(FastMedianException.class, call), expectedInMessage);
        assertArrayEquals(srcBefore, src, "src was written");
        assertArrayEquals(dstBefore, dst, "dst was written by a failed call");
    }

    private static void assertInvalid(FastMedianException e, String expectedInMessage) {
        assertEquals("invalid_argument", e.code(), e.toString());
        assertTrue(e.getMessage().contains(expectedInMessage),
                "message \"" + e.getMessage() + "\" lacks \"" + expectedInMessage + "\"");
    }

    private static TemporalOptions window3() {
        return TemporalOptions.of(3).backend(Backend.CPU);
    }

    private static byte[] pattern(int n) {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) a[i] = (byte) (i * 37);
        return a;
    }
}
