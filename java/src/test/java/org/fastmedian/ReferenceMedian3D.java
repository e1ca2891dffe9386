package org.fastmedian;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A slow, plain 3D median to check the library against: the window's offsets from their
 * definition, each voxel's window read through ReferenceMedian.source along x, y and z, sorted
 * with Arrays.sort (the library's float order, see ReferenceMedian).
 */
final class ReferenceMedian3D {
    private ReferenceMedian3D() {}

    /** The offsets {dx, dy, dz} of a box of odd sides. */
    static List<int[]> box(int kx, int ky, int kz) {
        List<int[]> offsets = new ArrayList<>();
        for (int dz = -kz / 2; dz <= kz / 2; dz++)
            for (int dy = -ky / 2; dy <= ky / 2; dy++)
                for (int dx = -kx / 2; dx <= kx / 2; dx++) offsets.add(new int[] {dx, dy, dz});
        return offsets;
    }

    /**
     * ImageJ's Filters3D ellipsoid (createKernelEllipsoid): float radii, squared in float; a
     * voxel belongs when dx^2/rx^2 + dy^2/ry^2 + dz^2/rz^2 &lt;= 1 in double, a zero radius
     * contributing nothing.
     */
    static List<int[]> ellipsoid(double radiusX, double radiusY, double radiusZ) {
        float rx = (float) radiusX, ry = (float) radiusY, rz = (float) radiusZ;
        int vx = (int) Math.ceil(rx), vy = (int) Math.ceil(ry), vz = (int) Math.ceil(rz);
        double ix = inverse(rx * rx), iy = inverse(ry * ry), iz = inverse(rz * rz);
        List<int[]> offsets = new ArrayList<>();
        for (int dz = -vz; dz <= vz; dz++)
            for (int dy = -vy; dy <= vy; dy++)
                for (int dx = -vx; dx <= vx; dx++)
                    if (dx * dx * ix + dy * dy * iy + dz * dz * iz <= 1.0)
                        offsets.add(new int[] {dx, dy, dz});
        return offsets;
    }

    private static double inverse(double square) {
        return square != 0 ? 1.0 / square : 0;
    }

    /** The median over {@code offsets} of every voxel; {@code outside} is CONSTANT's value. */
    static float[] median(float[] src, int width, int height, int planes, List<int[]> offsets,
            Border border, float outside) {
        float[] dst = new float[src.length];
        float[] window = new float[offsets.size()];
        for (int z = 0; z < planes; z++)
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) {
                    int n = 0;
                    for (int[] o : offsets) {
                        int sx = ReferenceMedian.source(x + o[0], width, border);
                        int sy = ReferenceMedian.source(y + o[1], height, border);
                        int sz = ReferenceMedian.source(z + o[2], planes, border);
                        window[n++] = sx < 0 || sy < 0 || sz < 0 ? outside
                                : src[(sz * height + sy) * width + sx];
                    }
                    Arrays.sort(window);
                    dst[(z * height + y) * width + x] = window[(n - 1) / 2];
                }
        return dst;
    }
}
