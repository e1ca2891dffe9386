package org.fastmedian;

/**
 * The temporal median of a live acquisition: {@link #push} frames one at a time and get, for
 * each, the median of the last N frames pushed (of all of them while fewer than N have been
 * pushed), or in {@link TemporalMode#SUBTRACT} the pushed frame minus that median plus the
 * offset. Frames are {@code width x height} pixels of the bit depth given at construction (8:
 * {@code byte[]}, 16: {@code short[]}, 32: {@code float[]}, as ImageJ's getBitDepth() says).
 * On the CUDA backend the last N frames stay on the GPU.
 *
 * <p>The stream holds native memory until {@link #close}: use it in try-with-resources. Its
 * methods are synchronized, so a stream may be handed between threads; separate streams are
 * independent. Every failure is a {@link FastMedianException}.
 */
public final class TemporalMedianStream implements AutoCloseable {
    private final int bitDepth;
    private final int width;
    private final int height;
    private long handle;

    public TemporalMedianStream(int bitDepth, int width, int height, TemporalOptions options) {
        NativeLibrary.ensureLoaded();
        if (options == null) throw new FastMedianException("invalid_argument", "options is null");
        this.handle = Natives.temporalStreamCreate(bitDepth, width, height, options.window(),
                FastMedian.name(options.mode()), options.offset(),
                FastMedian.name(options.backend()), options.device());
        this.bitDepth = bitDepth;
        this.width = width;
        this.height = height;
    }

    /**
     * Adds {@code frame} and writes its result into {@code out} (both {@code width * height}
     * long; they may be the same array). {@code out} is written only when the call succeeds.
     */
    public synchronized void push(byte[] frame, byte[] out) {
        Natives.temporalStreamPushU8(open(), frame, out);
    }

    public synchronized void push(short[] frame, short[] out) {
        Natives.temporalStreamPushU16(open(), frame, out);
    }

    public synchronized void push(float[] frame, float[] out) {
        Natives.temporalStreamPushF32(open(), frame, out);
    }

    /** How many frames have been pushed. */
    public synchronized long framesPushed() {
        return Natives.temporalStreamFramesPushed(open());
    }

    /** What runs the stream's medians: the CPU or a CUDA device. */
    public synchronized RunInfo runInfo() {
        return Natives.temporalStreamRunInfo(open());
    }

    public int bitDepth() {
        return bitDepth;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Frees the native stream; further calls but close() throw. Closing twice is harmless. */
    @Override
    public synchronized void close() {
        if (handle != 0) {
            long h = handle;
            handle = 0;
            Natives.temporalStreamClose(h);
        }
    }

    private long open() {
        if (handle == 0)
            throw new FastMedianException("invalid_argument", "the stream is closed");
        return handle;
    }
}
