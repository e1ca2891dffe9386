package org.fastmedian;

/**
 * What a median call may choose: the window (a k x k square or ImageJ's circle of radius r),
 * the border mode and its constant, and the backend. Setters return {@code this} for chaining:
 * {@code MedianOptions.circle(2).border(Border.REFLECT)}. Values are checked by the library when
 * a filter runs, so an invalid one fails there with a message naming it.
 */
public final class MedianOptions {
    private boolean circle;
    private int size = 3;
    private double radius;
    private Border border = Border.REPLICATE;
    private double cval;
    private Backend backend = Backend.AUTO;
    private int device;
    private int[] devices;  // null: device alone

    private MedianOptions() {}

    /** A square window of side {@code size} (odd, 1..1023). */
    public static MedianOptions square(int size) {
        MedianOptions o = new MedianOptions();
        o.size = size;
        return o;
    }

    /** ImageJ's circular window ("Process > Filters > Median", radius 0..511). */
    public static MedianOptions circle(double radius) {
        MedianOptions o = new MedianOptions();
        o.circle = true;
        o.radius = radius;
        return o;
    }

    public MedianOptions border(Border border) {
        this.border = border;
        return this;
    }

    /** The outside value for {@link Border#CONSTANT}, rounded and clamped for integer images. */
    public MedianOptions cval(double cval) {
        this.cval = cval;
        return this;
    }

    public MedianOptions backend(Backend backend) {
        this.backend = backend;
        return this;
    }

    /** The CUDA device index, for {@link Backend#CUDA}. */
    public MedianOptions device(int device) {
        this.device = device;
        return this;
    }

    /**
     * CUDA devices to spread the planes of a stack in Java arrays over (each takes the next
     * plane); the first is also {@link #device()}. The results are those of one device.
     */
    public MedianOptions devices(int... devices) {
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
        return (circle ? "circle r=" + radius : "square " + size + "x" + size) + ", border "
                + border + (border == Border.CONSTANT ? " " + cval : "") + ", backend " + backend
                + (backend == Backend.CUDA ? ":" + (devices == null ? String.valueOf(device)
                        : java.util.Arrays.toString(devices)) : "");
    }
}
