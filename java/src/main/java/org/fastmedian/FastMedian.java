package org.fastmedian;

/**
 * Exact median filters over images and stacks held in Java arrays: {@code planes} planes of
 * {@code width x height} pixels, stored plane after plane, row after row. A {@code byte[]} holds
 * 8-bit and a {@code short[]} 16-bit unsigned pixels (their bit patterns, as ImageJ stores them);
 * a {@code float[]} holds 32-bit pixels.
 *
 * <p>The median of the n window values is the element of rank (n-1)/2; floats are ordered
 * -Inf &lt; ... &lt; -0.0 &lt; +0.0 &lt; ... &lt; +Inf &lt; NaN, and a NaN result is the quiet
 * NaN 0x7FC00000. {@code src} is never modified. {@code dst} (a different array of the same
 * length) receives the result. Every call filters the arrays themselves, without copying them
 * (JNI critical sections, during which the garbage collector waits): a call on a GPU for the
 * whole call, a call on the CPU piece by piece (a few million pixels each), so that the
 * collector waits for one piece at most. After a failure {@code dst} may hold part of the
 * result. Every failure is a {@link FastMedianException} whose message names the offending
 * parameter.
 */
public final class FastMedian {
    private FastMedian() {}

    public static RunInfo median(byte[] src, byte[] dst, int width, int height, int planes,
            MedianOptions options) {
        MedianOptions o = checked(options);
        return Natives.medianU8(src, dst, width, height, planes, o.isCircle(), o.size(),
                o.radius(), name(o.border()), o.cval(), name(o.backend()), o.devices());
    }

    public static RunInfo median(short[] src, short[] dst, int width, int height, int planes,
            MedianOptions options) {
        MedianOptions o = checked(options);
        return Natives.medianU16(src, dst, width, height, planes, o.isCircle(), o.size(),
                o.radius(), name(o.border()), o.cval(), name(o.backend()), o.devices());
    }

    public static RunInfo median(float[] src, float[] dst, int width, int height, int planes,
            MedianOptions options) {
        MedianOptions o = checked(options);
        return Natives.medianF32(src, dst, width, height, planes, o.isCircle(), o.size(),
                o.radius(), name(o.border()), o.cval(), name(o.backend()), o.devices());
    }

    /**
     * The exact 3D median of the volume whose {@code planes} are its z slices: the window
     * (box or ImageJ's ellipsoid) over x, y and z, the border mode applied along all three (as
     * scipy.ndimage.median_filter with a 3D footprint). Same order, rank and NaN result as
     * {@link #median}.
     */
    public static RunInfo median3d(byte[] src, byte[] dst, int width, int height,
            int planes, Median3DOptions options) {
        Median3DOptions o = checked(options);
        return Natives.median3dU8(src, dst, width, height, planes, o.isEllipsoid(), o.sizeX(),
                o.sizeY(), o.sizeZ(), o.radiusX(), o.radiusY(), o.radiusZ(), name(o.border()),
                o.cval(), name(o.backend()), o.device());
    }

    public static RunInfo median3d(short[] src, short[] dst, int width, int height,
            int planes, Median3DOptions options) {
        Median3DOptions o = checked(options);
        return Natives.median3dU16(src, dst, width, height, planes, o.isEllipsoid(), o.sizeX(),
                o.sizeY(), o.sizeZ(), o.radiusX(), o.radiusY(), o.radiusZ(), name(o.border()),
                o.cval(), name(o.backend()), o.device());
    }

    public static RunInfo median3d(float[] src, float[] dst, int width, int height,
            int planes, Median3DOptions options) {
        Median3DOptions o = checked(options);
        return Natives.median3dF32(src, dst, width, height, planes, o.isEllipsoid(), o.sizeX(),
                o.sizeY(), o.sizeZ(), o.radiusX(), o.radiusY(), o.radiusZ(), name(o.border()),
                o.cval(), name(o.backend()), o.device());
    }

    /**
     * The temporal median of a stack whose {@code planes} are the frames of a movie: for every
     * frame t and pixel, the median of that pixel over a window of N frames (N =
     * {@code options.window()}, at most {@code planes}) starting at t - N/2, moved inward at the
     * ends so that every output uses exactly N frames. The median is the element of rank
     * (N-1)/2 (the lower middle for even N), floats ordered as {@link #median} orders them.
     * {@link TemporalMode#SUBTRACT} writes frame - median + offset instead (clamped for 8 and
     * 16-bit images, with the offset rounded).
     */
    public static RunInfo temporalMedian(byte[] src, byte[] dst, int width, int height,
            int planes, TemporalOptions options) {
        TemporalOptions o = checked(options);
        return Natives.temporalU8(src, dst, width, height, planes, o.window(), name(o.mode()),
                o.offset(), name(o.backend()), o.device());
    }

    public static RunInfo temporalMedian(short[] src, short[] dst, int width, int height,
            int planes, TemporalOptions options) {
        TemporalOptions o = checked(options);
        return Natives.temporalU16(src, dst, width, height, planes, o.window(), name(o.mode()),
                o.offset(), name(o.backend()), o.device());
    }

    public static RunInfo temporalMedian(float[] src, float[] dst, int width, int height,
            int planes, TemporalOptions options) {
        TemporalOptions o = checked(options);
        return Natives.temporalF32(src, dst, width, height, planes, o.window(), name(o.mode()),
                o.offset(), name(o.backend()), o.device());
    }

    /**
     * The large-window median background of every plane (uneven illumination,
     * autofluorescence), subtracted or written itself. {@link BackgroundMethod#EXACT}: the
     * median over the window, as {@link #median} computes it; {@link BackgroundMethod#SEPARABLE}
     * (squares only): a 1D median of k along y, then of k along x of that, both with the border
     * given. {@link BackgroundOutput#SUBTRACT} writes pixel - background + offset (the offset
     * rounded, halves away from zero, and the result clamped for 8 and 16-bit images; for
     * floats (pixel - background) + (float) offset, a NaN written as 0x7FC00000);
     * {@link BackgroundOutput#BACKGROUND} the background.
     */
    public static RunInfo background(byte[] src, byte[] dst, int width, int height, int planes,
            BackgroundOptions options) {
        BackgroundOptions o = checked(options);
        return Natives.backgroundU8(src, dst, width, height, planes, o.isCircle(), o.size(),
                o.radius(), name(o.method()), name(o.output()), o.offset(), name(o.border()),
                o.cval(), name(o.backend()), o.devices());
    }

    public static RunInfo background(short[] src, short[] dst, int width, int height,
            int planes, BackgroundOptions options) {
        BackgroundOptions o = checked(options);
        return Natives.backgroundU16(src, dst, width, height, planes, o.isCircle(), o.size(),
                o.radius(), name(o.method()), name(o.output()), o.offset(), name(o.border()),
                o.cval(), name(o.backend()), o.devices());
    }

    public static RunInfo background(float[] src, float[] dst, int width, int height,
            int planes, BackgroundOptions options) {
        BackgroundOptions o = checked(options);
        return Natives.backgroundF32(src, dst, width, height, planes, o.isCircle(), o.size(),
                o.radius(), name(o.method()), name(o.output()), o.offset(), name(o.border()),
                o.cval(), name(o.backend()), o.devices());
    }

    /**
     * Convolves every plane with the mask of {@code options} (see {@link ConvolveOptions} for
     * the semantics), writing {@code dst} in the source's type: 8 and 16-bit results are
     * clamped, then rounded to nearest with halves away from zero.
     */
    public static RunInfo convolve(byte[] src, byte[] dst, int width, int height, int planes,
            ConvolveOptions options) {
        ConvolveOptions o = checked(options);
        return Natives.convolveU8(src, dst, width, height, planes, o.kind(), o.maskArray(),
                o.maskWidth(), o.maskHeight(), o.rowArray(), o.columnArray(), o.sigma(),
                o.isNormalized(), name(o.border()), o.cval(), name(o.backend()), o.devices());
    }

    /** As {@link #convolve(byte[], byte[], int, int, int, ConvolveOptions)}, float output. */
    public static RunInfo convolve(byte[] src, float[] dst, int width, int height, int planes,
            ConvolveOptions options) {
        ConvolveOptions o = checked(options);
        return Natives.convolveU8(src, dst, width, height, planes, o.kind(), o.maskArray(),
                o.maskWidth(), o.maskHeight(), o.rowArray(), o.columnArray(), o.sigma(),
                o.isNormalized(), name(o.border()), o.cval(), name(o.backend()), o.devices());
    }

    public static RunInfo convolve(short[] src, short[] dst, int width, int height, int planes,
            ConvolveOptions options) {
        ConvolveOptions o = checked(options);
        return Natives.convolveU16(src, dst, width, height, planes, o.kind(), o.maskArray(),
                o.maskWidth(), o.maskHeight(), o.rowArray(), o.columnArray(), o.sigma(),
                o.isNormalized(), name(o.border()), o.cval(), name(o.backend()), o.devices());
    }

    /** As {@link #convolve(short[], short[], int, int, int, ConvolveOptions)}, float output. */
    public static RunInfo convolve(short[] src, float[] dst, int width, int height, int planes,
            ConvolveOptions options) {
        ConvolveOptions o = checked(options);
        return Natives.convolveU16(src, dst, width, height, planes, o.kind(), o.maskArray(),
                o.maskWidth(), o.maskHeight(), o.rowArray(), o.columnArray(), o.sigma(),
                o.isNormalized(), name(o.border()), o.cval(), name(o.backend()), o.devices());
    }

    public static RunInfo convolve(float[] src, float[] dst, int width, int height, int planes,
            ConvolveOptions options) {
        ConvolveOptions o = checked(options);
        return Natives.convolveF32(src, dst, width, height, planes, o.kind(), o.maskArray(),
                o.maskWidth(), o.maskHeight(), o.rowArray(), o.columnArray(), o.sigma(),
                o.isNormalized(), name(o.border()), o.cval(), name(o.backend()), o.devices());
    }

    /**
     * The Gaussian blur of standard deviation {@code sigma}, replicate border, on the first
     * CUDA device or the CPU: {@code convolve(src, dst, ..., ConvolveOptions.gaussian(sigma))}.
     */
    public static RunInfo gaussianBlur(byte[] src, byte[] dst, int width, int height, int planes,
            double sigma) {
        return convolve(src, dst, width, height, planes, ConvolveOptions.gaussian(sigma));
    }

    public static RunInfo gaussianBlur(short[] src, short[] dst, int width, int height,
            int planes, double sigma) {
        return convolve(src, dst, width, height, planes, ConvolveOptions.gaussian(sigma));
    }

    public static RunInfo gaussianBlur(float[] src, float[] dst, int width, int height,
            int planes, double sigma) {
        return convolve(src, dst, width, height, planes, ConvolveOptions.gaussian(sigma));
    }

    /** The native library's version, "MAJOR.MINOR.PATCH". */
    public static String version() {
        NativeLibrary.ensureLoaded();
        return Natives.version();
    }

    /** Whether the native library was built with its CUDA backend. */
    public static boolean cudaCompiled() {
        NativeLibrary.ensureLoaded();
        return Natives.cudaCompiled();
    }

    /** The CUDA devices usable now; empty without a driver or a GPU. */
    public static DeviceInfo[] cudaDevices() {
        NativeLibrary.ensureLoaded();
        return Natives.cudaDevices();
    }

    /** Why CUDA cannot be used here ("" when a device can), for logs. */
    public static String cudaUnavailableReason() {
        NativeLibrary.ensureLoaded();
        return Natives.cudaUnavailableReason();
    }

    /** Whether the native library loads; the other methods throw if it does not. */
    public static boolean isAvailable() {
        return NativeLibrary.isLoaded();
    }

    private static MedianOptions checked(MedianOptions options) {
        NativeLibrary.ensureLoaded();
        if (options == null) throw new FastMedianException("invalid_argument", "options is null");
        return options;
    }

    private static Median3DOptions checked(Median3DOptions options) {
        NativeLibrary.ensureLoaded();
        if (options == null) throw new FastMedianException("invalid_argument", "options is null");
        return options;
    }

    private static ConvolveOptions checked(ConvolveOptions options) {
        NativeLibrary.ensureLoaded();
        if (options == null) throw new FastMedianException("invalid_argument", "options is null");
        return options;
    }

    private static TemporalOptions checked(TemporalOptions options) {
        NativeLibrary.ensureLoaded();
        if (options == null) throw new FastMedianException("invalid_argument", "options is null");
        return options;
    }

    private static BackgroundOptions checked(BackgroundOptions options) {
        NativeLibrary.ensureLoaded();
        if (options == null) throw new FastMedianException("invalid_argument", "options is null");
        return options;
    }

    // A null enum travels as null, which the bridge reports naming the option.
    static String name(Enum<?> value) {
        return value == null ? null : value.toString();
    }
}
