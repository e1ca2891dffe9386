package org.fastmedian;

/**
 * What a convolution call may choose: the mask (a generic {@code width x height} mask, a
 * separable row and column mask, or a Gaussian of a given sigma), normalisation, the border
 * mode and its constant, and the backend. Setters return {@code this} for chaining:
 * {@code ConvolveOptions.kernel(mask, 5, 5).normalize(true).border(Border.REFLECT)}. Values are
 * checked by the library when a filter runs, so an invalid one fails there with a message naming
 * it. The output's type is the destination array's: the source's own type, or {@code float[]}.
 *
 * <p>Semantics (every backend gives the same bits): true convolution (the mask flipped, as
 * scipy.ndimage.convolve), summed in float with one fused multiply-add per mask element, input
 * rows top to bottom and left to right within a row; separable masks run the column mask first
 * into a float intermediate, then the row mask. Integer outputs are clamped to the type's range
 * and rounded to nearest, halves away from zero (NaN gives 0); float outputs keep NaN and
 * infinities (a NaN under the mask, even under a zero weight, gives NaN, written as 0x7FC00000).
 */
public final class ConvolveOptions {
    /** The largest side of a generic mask. */
    public static final int MAX_MASK_SIZE = 63;
    /** The longest row or column mask of a separable mask. */
    public static final int MAX_SEPARABLE_LENGTH = 1023;
    /** The largest Gaussian sigma. */
    public static final double MAX_GAUSSIAN_SIGMA = 127.0;

    static final int GENERIC = 0, SEPARABLE = 1, GAUSSIAN = 2;

    private int kind;
    private float[] mask;
    private int maskWidth, maskHeight;
    private float[] rowMask, columnMask;
    private double sigma;
    private boolean normalize;
    private Border border = Border.REPLICATE;
    private double cval;
    private Backend backend = Backend.AUTO;
    private int device;
    private int[] devices;  // null: device alone

    private ConvolveOptions() {}

    /**
     * A generic mask of {@code width x height} values (both odd, 1..{@value #MAX_MASK_SIZE}),
     * row after row, the top row first, as ImageJ's Process &gt; Filters &gt; Convolve reads
     * its text. The array is copied.
     */
    public static ConvolveOptions kernel(float[] mask, int width, int height) {
        ConvolveOptions o = new ConvolveOptions();
        o.kind = GENERIC;
        o.mask = mask == null ? null : mask.clone();
        o.maskWidth = width;
        o.maskHeight = height;
        return o;
    }

    /**
     * A separable mask: {@code row} along x, then {@code column} along y (odd lengths,
     * 1..{@value #MAX_SEPARABLE_LENGTH}); the column pass runs first. The arrays are copied.
     */
    public static ConvolveOptions separable(float[] row, float[] column) {
        ConvolveOptions o = new ConvolveOptions();
        o.kind = SEPARABLE;
        o.rowMask = row == null ? null : row.clone();
        o.columnMask = column == null ? null : column.clone();
        return o;
    }

    /**
     * The Gaussian blur of standard deviation {@code sigma} (0 &lt; sigma &lt;=
     * {@value #MAX_GAUSSIAN_SIGMA}): scipy.ndimage.gaussian_filter's mask (truncate 4.0, radius
     * int(4 sigma + 0.5), normalised) as row and column mask; see {@link #gaussianMask}.
     */
    public static ConvolveOptions gaussian(double sigma) {
        ConvolveOptions o = new ConvolveOptions();
        o.kind = GAUSSIAN;
        o.sigma = sigma;
        return o;
    }

    /** The Gaussian's 1D mask: 2r + 1 weights for r = int(4 sigma + 0.5), summing to 1. */
    public static float[] gaussianMask(double sigma) {
        NativeLibrary.ensureLoaded();
        return Natives.gaussianMask(sigma);
    }

    /** Divide the mask (each of a separable pair) by its sum, which must not be 0. */
    public ConvolveOptions normalize(boolean normalize) {
        this.normalize = normalize;
        return this;
    }

    public ConvolveOptions border(Border border) {
        this.border = border;
        return this;
    }

    /** The outside value for {@link Border#CONSTANT}, rounded and clamped for integer images. */
    public ConvolveOptions cval(double cval) {
        this.cval = cval;
        return this;
    }

    public ConvolveOptions backend(Backend backend) {
        this.backend = backend;
        return this;
    }

    /** The CUDA device index, for {@link Backend#CUDA}. */
    public ConvolveOptions device(int device) {
        this.device = device;
        return this;
    }

    /**
     * CUDA devices to spread the planes of a stack in Java arrays over (each takes the next
     * plane); the first is also {@link #device()}. The results are those of one device.
     */
    public ConvolveOptions devices(int... devices) {
        this.devices = DeviceList.checked(devices);
        this.device = this.devices[0];
        return this;
    }

    int kind() {
        return kind;
    }

    /** The generic mask (a copy), or null for a separable or Gaussian one. */
    public float[] mask() {
        return mask == null ? null : mask.clone();
    }

    float[] maskArray() {
        return mask;
    }

    public int maskWidth() {
        return maskWidth;
    }

    public int maskHeight() {
        return maskHeight;
    }

    /** The separable row mask (a copy), or null. */
    public float[] rowMask() {
        return rowMask == null ? null : rowMask.clone();
    }

    float[] rowArray() {
        return rowMask;
    }

    /** The separable column mask (a copy), or null. */
    public float[] columnMask() {
        return columnMask == null ? null : columnMask.clone();
    }

    float[] columnArray() {
        return columnMask;
    }

    /** The Gaussian's sigma, or 0 for other masks. */
    public double sigma() {
        return sigma;
    }

    public boolean isNormalized() {
        return normalize;
    }

    public Border border() {
        return border;
    }

    public double cval() {
        return cval;
    }

    public Backend backend() {
        return backend;
    }

    public int device() {
        return device;
    }

    /** The devices given to {@link #devices(int...)}, or {@link #device()} alone. */
    public int[] devices() {
        return devices != null ? devices.clone() : new int[] {device};
    }

    @Override
    public String toString() {
        String m = kind == GENERIC ? "kernel " + maskWidth + "x" + maskHeight
                : kind == SEPARABLE ? "separable " + (rowMask == null ? 0 : rowMask.length) + "/"
                        + (columnMask == null ? 0 : columnMask.length)
                : "gaussian sigma " + sigma;
        return m + (normalize ? " normalized" : "") + ", border " + border
                + (border == Border.CONSTANT ? " " + cval : "") + ", backend " + backend
                + (backend == Backend.CUDA ? ":" + (devices == null ? String.valueOf(device)
                        : java.util.Arrays.toString(devices)) : "");
    }
}
