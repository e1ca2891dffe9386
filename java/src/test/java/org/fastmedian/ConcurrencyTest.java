package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Many threads calling the library at once: every call gives the bits the same call gives alone,
 * bad calls made meanwhile fail naming their parameter, and temporal streams used from several
 * threads (one each, or one shared under a lock) give the frames a stream used alone gives.
 * The threads meet at a barrier before every round, so that their calls overlap.
 */
class ConcurrencyTest {
    private static final int THREADS = 8;
    private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final int W = 67, H = 45, P = 6, N = W * H * P;  // odd sizes: ragged tiles
    private static final int FW = 320, FH = 240;  // the streams' frames

    /** A library call on inputs of its own, returning a new output each time. */
    private record Call(String name, Supplier<Object> run) {}

    /** A call that must fail with invalid_argument, its message naming {@code parameter}. */
    private record BadCall(String parameter, Executable run) {}

    @Test
    void callsAtOnceEqualTheSameCallsAlone() throws Exception {
        List<Call> calls = calls();
        List<Object> alone = new ArrayList<>();
        for (Call c : calls) alone.add(c.run().get());
        List<BadCall> bad = badCalls();
        AtomicInteger made = new AtomicInteger(), refused = new AtomicInteger();
        long deadline = System.nanoTime() + RUN_NANOS;
        // Each round one thread makes a bad call; the others make good ones in pairs, both of a
        // pair the same call, each pair a different one, changing from round to round.
        Queue<String> failures = together((thread, round) -> {
            if (thread == round % THREADS) {
                BadCall b = bad.get(round % bad.size());
                expectRejected(b);
                refused.incrementAndGet();
                return;
            }
            int i = (thread / 2 + round) % calls.size();
            Object got = calls.get(i).run().get();
            made.incrementAndGet();
            String difference = difference(alone.get(i), got);
            if (difference != null)
                throw new AssertionError(calls.get(i).name() + ", round " + round + ": "
                        + difference + " (alone, then with others)");
        }, round -> System.nanoTime() > deadline);
        assertNoFailures(failures);
        assertTrue(made.get() >= calls.size() * 2, "only " + made + " calls made");
        assertTrue(refused.get() >= bad.size(), "only " + refused + " bad calls made");
    }

    // One stream per thread, of different types, windows and modes, fed in step.
    @Test
    void separateStreamsAtOnceEqualEachStreamAlone() throws Exception {
        float[][] movie = movie();
        List<Supplier<TemporalMedianStream>> makers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int bits = new int[] {8, 16, 32}[t % 3];
            TemporalOptions o = TemporalOptions.of(2 + t)
                    .mode(t % 2 == 0 ? TemporalMode.MEDIAN : TemporalMode.SUBTRACT).offset(t);
            makers.add(() -> new TemporalMedianStream(bits, FW, FH, o));
        }
        List<Object[]> alone = new ArrayList<>();
        for (Supplier<TemporalMedianStream> maker : makers) {
            try (TemporalMedianStream s = maker.get()) {
                Object[] out = new Object[movie.length];
                for (int f = 0; f < movie.length; f++) out[f] = push(s, movie[f]);
                alone.add(out);
            }
        }
        TemporalMedianStream[] streams = new TemporalMedianStream[THREADS];
        for (int t = 0; t < THREADS; t++) streams[t] = makers.get(t).get();
        try {
            Queue<String> failures = together((thread, frame) -> {
                String difference = difference(alone.get(thread)[frame],
                        push(streams[thread], movie[frame]));
                if (difference != null)
                    throw new AssertionError("stream " + thread + ", frame " + frame + ": "
                            + difference);
            }, round -> round == movie.length);
            assertNoFailures(failures);
        } finally {
            for (TemporalMedianStream s : streams) s.close();
        }
    }

    // The threads take turns on one stream: whoever holds its lock pushes the next frame.
    @Test
    void oneStreamSharedUnderALockEqualsItAlone() throws Exception {
        float[][] movie = movie();
        TemporalOptions o = TemporalOptions.of(5).mode(TemporalMode.SUBTRACT).offset(100);
        Object[] alone = new Object[movie.length];
        try (TemporalMedianStream s = new TemporalMedianStream(16, FW, FH, o)) {
            for (int f = 0; f < movie.length; f++) alone[f] = push(s, movie[f]);
        }
        AtomicInteger next = new AtomicInteger();
        try (TemporalMedianStream shared = new TemporalMedianStream(16, FW, FH, o)) {
            Queue<String> failures = together((thread, round) -> {
                synchronized (shared) {
                    int f = next.getAndIncrement();
                    if (f >= movie.length) return;
                    String difference = difference(alone[f], push(shared, movie[f]));
                    if (difference != null)
                        throw new AssertionError("frame " + f + " pushed by thread " + thread
                                + ": " + difference);
                }
            }, round -> next.get() >= movie.length);
            assertNoFailures(failures);
            assertEquals(movie.length, shared.framesPushed());
        }
    }

    // A stream closed while others push into it: each push either runs or says it is closed.
    @Test
    void closingAStreamWhileOthersPushIsSafe() throws Exception {
        float[][] movie = movie();
        TemporalMedianStream stream = new TemporalMedianStream(32, FW, FH, TemporalOptions.of(4));
        AtomicInteger pushed = new AtomicInteger();
        Queue<String> failures = together((thread, round) -> {
            if (thread == 0 && round == 3) {
                stream.close();
                return;
            }
            try {
                push(stream, movie[round]);
                pushed.incrementAndGet();
            } catch (FastMedianException e) {
                if (!e.getMessage().equals("the stream is closed")) throw e;
            }
        }, round -> round == 6);
        assertNoFailures(failures);
        // Rounds 0..2 all push; after round 3 none does.
        assertTrue(pushed.get() >= 3 * THREADS && pushed.get() < 4 * THREADS, pushed + " pushes");
        assertEquals("the stream is closed", assertRefused(stream::framesPushed));
    }

    /** What each thread does in one round. */
    private interface Step {
        void run(int thread, int round) throws Exception;
    }

    /**
     * Runs {@code step} in THREADS threads, round after round, until {@code stop}; the threads
     * are released together at each round. Returns what failed, a line each.
     */
    private static Queue<String> together(Step step, IntPredicate stop) throws Exception {
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        int[] round = {0};
        boolean[] stopped = {false};
        // The barrier's action runs once per round, before any thread is released.
        CyclicBarrier barrier =
                new CyclicBarrier(THREADS, () -> stopped[0] = stop.test(round[0]++));
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                running.add(pool.submit(() -> {
                    for (int r = 0;; r++) {
                        barrier.await(2, TimeUnit.MINUTES);
                        if (stopped[0]) return null;
                        try {
                            step.run(thread, r);
                        } catch (Exception | AssertionError e) {
                            failures.add("thread " + thread + ", round " + r + ": " + e);
                        }
                    }
                }));
            }
            for (Future<?> f : running) f.get();
        } finally {
            pool.shutdownNow();
        }
        return failures;
    }

    private static void assertNoFailures(Queue<String> failures) {
        if (!failures.isEmpty())
            fail(failures.size() + " failure(s):\n" + String.join("\n", failures));
    }

    private static void expectRejected(BadCall b) {
        String message = assertRefused(b.run());
        if (!message.contains(b.parameter()))
            throw new AssertionError("message \"" + message + "\" lacks \"" + b.parameter() + "\"");
    }

    /** Runs {@code call}, which must throw invalid_argument; returns the message. */
    private static String assertRefused(Executable call) {
        try {
            call.execute();
        } catch (FastMedianException e) {
            if (!e.code().equals("invalid_argument")) throw new AssertionError(e.toString(), e);
            return e.getMessage();
        } catch (Throwable e) {
            throw new AssertionError("not a FastMedianException: " + e, e);
        }
        throw new AssertionError("no exception");
    }

    // Every front door, each type, inputs of its own.
    private static List<Call> calls() {
        Random rnd = new Random(10);
        byte[] b = bytes(rnd, N);
        short[] s = shorts(rnd, N);
        float[] f = floats(rnd, N);
        List<Call> calls = new ArrayList<>();
        calls.add(new Call("median u8 circle 2", () -> {
            byte[] out = new byte[N];
            FastMedian.median(b, out, W, H, P, MedianOptions.circle(2));
            return out;
        }));
        calls.add(new Call("median u16 square 7 reflect", () -> {
            short[] out = new short[N];
            FastMedian.median(s, out, W, H, P, MedianOptions.square(7).border(Border.REFLECT));
            return out;
        }));
        calls.add(new Call("median f32 circle 6", () -> {
            float[] out = new float[N];
            FastMedian.median(f, out, W, H, P, MedianOptions.circle(6));
            return out;
        }));
        calls.add(new Call("median3d u8 box 3x5x3", () -> {
            byte[] out = new byte[N];
            FastMedian.median3d(b, out, W, H, P, Median3DOptions.box(3, 5, 3));
            return out;
        }));
        calls.add(new Call("median3d f32 ellipsoid 2,2,1", () -> {
            float[] out = new float[N];
            FastMedian.median3d(f, out, W, H, P, Median3DOptions.ellipsoid(2, 2, 1));
            return out;
        }));
        calls.add(new Call("temporal u16 N=4 subtract", () -> {
            short[] out = new short[N];
            FastMedian.temporalMedian(s, out, W, H, P,
                    TemporalOptions.of(4).mode(TemporalMode.SUBTRACT).offset(50));
            return out;
        }));
        calls.add(new Call("temporal f32 N=5", () -> {
            float[] out = new float[N];
            FastMedian.temporalMedian(f, out, W, H, P, TemporalOptions.of(5));
            return out;
        }));
        calls.add(new Call("background u8 circle 10 exact", () -> {
            byte[] out = new byte[N];
            FastMedian.background(b, out, W, H, P, BackgroundOptions.circle(10).offset(20));
            return out;
        }));
        calls.add(new Call("background u16 square 31 separable", () -> {
            short[] out = new short[N];
            FastMedian.background(s, out, W, H, P,
                    BackgroundOptions.square(31).method(BackgroundMethod.SEPARABLE));
            return out;
        }));
        calls.add(new Call("convolve u8 3x5 kernel", () -> {
            byte[] out = new byte[N];
            FastMedian.convolve(b, out, W, H, P, ConvolveOptions.kernel(
                    new float[] {1, 2, 1, 0, 3, 0, -1, 2, -1, 4, 0, 4, 1, 1, 1}, 3, 5));
            return out;
        }));
        calls.add(new Call("convolve u16 -> f32 gaussian 1.5", () -> {
            float[] out = new float[N];
            FastMedian.convolve(s, out, W, H, P, ConvolveOptions.gaussian(1.5));
            return out;
        }));
        calls.add(new Call("convolve f32 separable mirror", () -> {
            float[] out = new float[N];
            FastMedian.convolve(f, out, W, H, P, ConvolveOptions.separable(
                    new float[] {1, -2, 5}, new float[] {0.5f, 1, 2, 1, 0.5f})
                    .border(Border.MIRROR));
            return out;
        }));
        return calls;
    }

    private static List<BadCall> badCalls() {
        byte[] b = new byte[N];
        float[] f = new float[N];
        return List.of(
                new BadCall("window.radius", () -> FastMedian.median(b, new byte[N], W, H, P,
                        MedianOptions.circle(-1))),
                new BadCall("window.size_y", () -> FastMedian.median3d(f, new float[N], W, H, P,
                        Median3DOptions.box(3, 4, 3))),
                new BadCall("window", () -> FastMedian.temporalMedian(f, new float[N], W, H, P,
                        TemporalOptions.of(P + 1))),
                new BadCall("dst has " + (N - 1) + " elements", () -> FastMedian.background(b,
                        new byte[N - 1], W, H, P, BackgroundOptions.square(31))),
                new BadCall("sigma", () -> FastMedian.convolve(f, new float[N], W, H, P,
                        ConvolveOptions.gaussian(-1))),
                new BadCall("options.border is null", () -> FastMedian.median(b, new byte[N],
                        W, H, P, MedianOptions.square(3).border(null))));
    }

    // Frames as floats; push() converts them to the stream's type.
    private static float[][] movie() {
        Random rnd = new Random(12);
        float[][] frames = new float[40][FW * FH];
        for (float[] frame : frames)
            for (int i = 0; i < frame.length; i++) frame[i] = rnd.nextInt(256);
        return frames;
    }

    private static Object push(TemporalMedianStream s, float[] frame) {
        switch (s.bitDepth()) {
            case 8: {
                byte[] in = new byte[frame.length], out = new byte[frame.length];
                for (int i = 0; i < in.length; i++) in[i] = (byte) frame[i];
                s.push(in, out);
                return out;
            }
            case 16: {
                short[] in = new short[frame.length], out = new short[frame.length];
                for (int i = 0; i < in.length; i++) in[i] = (short) (frame[i] * 200);
                s.push(in, out);
                return out;
            }
            default: {
                float[] out = new float[frame.length];
                s.push(frame, out);
                return out;
            }
        }
    }

    /** Where two outputs first differ (floats by their bits), or null when they do not. */
    private static String difference(Object want, Object got) {
        int n = java.lang.reflect.Array.getLength(want);
        for (int i = 0; i < n; i++) {
            long w = bits(want, i), g = bits(got, i);
            if (w != g)
                return "element " + i + ": " + Long.toHexString(w) + " vs " + Long.toHexString(g);
        }
        return null;
    }

    private static long bits(Object a, int i) {
        if (a instanceof byte[]) return ((byte[]) a)[i] & 0xff;
        if (a instanceof short[]) return ((short[]) a)[i] & 0xffff;
        return Float.floatToRawIntBits(((float[]) a)[i]) & 0xffffffffL;
    }

    private static byte[] bytes(Random rnd, int n) {
        byte[] a = new byte[n];
        rnd.nextBytes(a);
        return a;
    }

    private static short[] shorts(Random rnd, int n) {
        short[] a = new short[n];
        for (int i = 0; i < n; i++) a[i] = (short) rnd.nextInt(65536);
        return a;
    }

    // Values in a few ranges, with infinities, signed zeros and NaNs (one a signalling payload).
    private static float[] floats(Random rnd, int n) {
        float[] specials = {Float.NaN, Float.intBitsToFloat(0x7F800001), Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY, -0.0f, 0.0f};
        float[] a = new float[n];
        for (int i = 0; i < n; i++)
            a[i] = rnd.nextInt(50) == 0 ? specials[rnd.nextInt(specials.length)]
                    : (float) (rnd.nextGaussian() * 1000);
        return a;
    }
}
