package org.fastmedian;

/**
 * What a temporal median call may choose: the window of N frames, the mode, the offset added in
 * {@link TemporalMode#SUBTRACT}, and the backend. Setters return {@code this} for chaining:
 * {@code TemporalOptions.of(9).mode(TemporalMode.SUBTRACT).offset(100)}. Values are checked by
 * the library when a filter runs, so an invalid one fails there with a message naming it.
 */
public final class TemporalOptions {
    /** The largest window the library accepts. */
    public static final int MAX_WINDOW = 65535;

    private int window;
    private TemporalMode mode = TemporalMode.MEDIAN;
    private double offset;
    private Backend backend = Backend.AUTO;
    private int device;

    private TemporalOptions() {}

    /**
     * A window of {@code window} frames (1..{@value #MAX_WINDOW}, and at most the stack's
     * planes): centred on each frame for odd N, with one frame more before it than after for
     * even N, and shifted inward at the first and last frames so every output uses N frames.
     */
    public static TemporalOptions of(int window) {
        TemporalOptions o = new TemporalOptions();
        o.window = window;
        return o;
    }

    public TemporalOptions mode(TemporalMode mode) {
        this.mode = mode;
        return this;
    }

    /**
     * Added to frame - median in {@link TemporalMode#SUBTRACT} (finite, |offset| &lt;= 1e9):
     * rounded to the nearest integer and the result clamped for 8 and 16-bit images; added in
     * float for 32-bit images.
     */
    public TemporalOptions offset(double offset) {
        this.offset = offset;
        return this;
    }

    public TemporalOptions backend(Backend backend) {
        this.backend = backend;
        return this;
    }

    /** The CUDA device index, for {@link Backend#CUDA}. */
    public TemporalOptions device(int device) {
        this.device = device;
        return this;
    }

    public int window() {
        return window;
    }

    public TemporalMode mode() {
        return mode;
    }

    public double offset() {
        return offset;
    }

    public Backend backend() {
        return backend;
    }

    public int device() {
        return device;
    }

    @Override
    public String toString() {
        return "temporal " + mode + " N=" + window
                + (mode == TemporalMode.SUBTRACT ? " offset " + offset : "") + ", backend "
                + backend + (backend == Backend.CUDA ? ":" + device : "");
    }
}
