package org.fastmedian;

/**
 * What a background call may choose: the window (a k x k square or ImageJ's circle of radius
 * r), the method, the output and its offset, the border mode and its constant, and the backend.
 * Setters return {@code this} for chaining:
 * {@code BackgroundOptions.square(65).method(BackgroundMethod.SEPARABLE).offset(100)}. Values
 * are checked by the library when a filter runs, so an invalid one fails there with a message
 * naming it.
 */
public final class BackgroundOptions {
    private boolean circle;
    private int size = 65;
    private double radius;
    private BackgroundMethod method = BackgroundMethod.EXACT;
    private BackgroundOutput output = BackgroundOutput.SUBTRACT;
    private double offset;
    private Border border = Border.REPLICATE;
    private double cval;
    private Backend backend = Backend.AUTO;
    private int device;
    private int[] devices;  // null: device alone

    private BackgroundOptions() {}

    /** A square window of side {@code size} (odd, 1..1023; 64 x 64 and up is the usual). */
    public static BackgroundOptions square(int size) {
        BackgroundOptions o = new BackgroundOptions();
        o.size = size;
        return o;
    }

    /**
     * ImageJ's circular window ("Process &gt; Filters &gt; Median", radius 0..511), for
     * {@link BackgroundMethod#EXACT} only.
     */
    public static BackgroundOptions circle(double radius) {
        BackgroundOptions o = new BackgroundOptions();
        o.circle = true;
        o.radius = radius;
        return o;
    }

    public BackgroundOptions method(BackgroundMethod method) {
        this.method = method;
        return this;
    }

    public BackgroundOptions output(BackgroundOutput output) {
        this.output = output;
        return this;
    }

    /**
     * Added to image - background in {@link BackgroundOutput#SUBTRACT} (finite,
     * |offset| &lt;= 1e9): rounded to the nearest integer (halves away from zero) and the
     * result clamped for 8 and 16-bit images; added in float for 32-bit images.
     */
    public BackgroundOptions offset(double offset) {
        this.offset = offset;
        return this;
    }

    public BackgroundOptions border(Border border) {
        this.border = border;
        return this;
    }

    /** The outside value for {@link Border#CONSTANT}, rounded and clamped for integer images. */
    public BackgroundOptions cval(double cval) {
        this.cval = cval;
        return this;
    }

    public BackgroundOptions backend(Backend backend) {
        this.backend = backend;
        return this;
    }

    /** The CUDA device index, for {@link Backend#CUDA}. */
    public BackgroundOptions device(int device) {
        this.device = device;
        return this;
    }

    /**
     * CUDA devices to spread the planes of a stack in Java arrays over (each takes the next
     * plane); the first is also {@link #device()}. The results are those of one device.
     */
    public BackgroundOptions devices(int... devices) {
        this.devices = DeviceList.checked(devices);
        this.device = this.devices[0];
        return this;
    }

    public boolean isCircle() {
        return circle;
    }

    public int size() {
        return size;
    }

    public double radius() {
        return radius;
    }

    public BackgroundMethod method() {
        return method;
    }

    public BackgroundOutput output() {
        return output;
    }

    public double offset() {
        return offset;
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
        return "background " + method + " " + (circle ? "circle r=" + radius
                : "square " + size + "x" + size) + ", " + output
                + (output == BackgroundOutput.SUBTRACT ? " offset " + offset : "") + ", border "
                + border + (border == Border.CONSTANT ? " " + cval : "") + ", backend " + backend
                + (backend == Backend.CUDA ? ":" + (devices == null ? String.valueOf(device)
                        : java.util.Arrays.toString(devices)) : "");
    }
}
