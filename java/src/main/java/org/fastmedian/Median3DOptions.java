package org.fastmedian;

/**
 * What a 3D median call may choose: the window (a kx x ky x kz box, or the ellipsoid of radii
 * rx, ry, rz of ImageJ's Process &gt; Filters &gt; 3D Median), the border mode and its constant,
 * and the backend. Setters return {@code this} for chaining:
 * {@code Median3DOptions.ellipsoid(2, 2, 1).border(Border.REFLECT)}. Values are checked by the
 * library when a filter runs, so an invalid one fails there with a message naming it.
 */
public final class Median3DOptions {
    private boolean ellipsoid;
    private int sizeX = 3, sizeY = 3, sizeZ = 3;
    private double radiusX, radiusY, radiusZ;
    private Border border = Border.REPLICATE;
    private double cval;
    private Backend backend = Backend.AUTO;
    private int device;

    private Median3DOptions() {}

    /** A box of odd sides kx, ky, kz (1..255 each). */
    public static Median3DOptions box(int sizeX, int sizeY, int sizeZ) {
        Median3DOptions o = new Median3DOptions();
        o.sizeX = sizeX;
        o.sizeY = sizeY;
        o.sizeZ = sizeZ;
        return o;
    }

    /** A cube of odd side k. */
    public static Median3DOptions box(int size) {
        return box(size, size, size);
    }

    /**
     * ImageJ's ellipsoid (Filters3D): the voxels with dx^2/rx^2 + dy^2/ry^2 + dz^2/rz^2 &lt;= 1,
     * radii 0..127 (0: only offset 0 along that axis).
     */
    public static Median3DOptions ellipsoid(double radiusX, double radiusY, double radiusZ) {
        Median3DOptions o = new Median3DOptions();
        o.ellipsoid = true;
        o.radiusX = radiusX;
        o.radiusY = radiusY;
        o.radiusZ = radiusZ;
        return o;
    }

    /** A sphere of radius r. */
    public static Median3DOptions ellipsoid(double radius) {
        return ellipsoid(radius, radius, radius);
    }

    public Median3DOptions border(Border border) {
        this.border = border;
        return this;
    }

    /** The outside value for {@link Border#CONSTANT}, rounded and clamped for integer images. */
    public Median3DOptions cval(double cval) {
        this.cval = cval;
        return this;
    }

    public Median3DOptions backend(Backend backend) {
        this.backend = backend;
        return this;
    }

    /** The CUDA device index, for {@link Backend#CUDA}. */
    public Median3DOptions device(int device) {
        this.device = device;
        return this;
    }

    public boolean isEllipsoid() {
        return ellipsoid;
    }

    public int sizeX() {
        return sizeX;
    }

    public int sizeY() {
        return sizeY;
    }

    public int sizeZ() {
        return sizeZ;
    }

    public double radiusX() {
        return radiusX;
    }

    public double radiusY() {
        return radiusY;
    }

    public double radiusZ() {
        return radiusZ;
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

    @Override
    public String toString() {
        return (ellipsoid ? "ellipsoid r=" + radiusX + "," + radiusY + "," + radiusZ
                        : "box " + sizeX + "x" + sizeY + "x" + sizeZ)
                + ", border " + border + (border == Border.CONSTANT ? " " + cval : "")
                + ", backend " + backend + (backend == Backend.CUDA ? ":" + device : "");
    }
}
