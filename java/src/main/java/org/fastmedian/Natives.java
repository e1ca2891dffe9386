package org.fastmedian;

// The JNI entry points (native/jni/fastmedian_jni.cpp). Callers load the library first; see
// NativeLibrary. Enums travel as their library names, the median window as its three fields,
// the devices of the plane-wise filters as an int[] (the first is the device).
final class Natives {
    private Natives() {}

    static native RunInfo medianU8(byte[] src, byte[] dst, int width, int height, int planes,
            boolean circle, int size, double radius, String border, double cval, String backend,
            int[] devices);

    static native RunInfo medianU16(short[] src, short[] dst, int width, int height, int planes,
            boolean circle, int size, double radius, String border, double cval, String backend,
            int[] devices);

    static native RunInfo medianF32(float[] src, float[] dst, int width, int height, int planes,
            boolean circle, int size, double radius, String border, double cval, String backend,
            int[] devices);

    // The 3D median: the planes are the volume's z slices; the window as its seven fields.
    static native RunInfo median3dU8(byte[] src, byte[] dst, int width, int height,
            int planes, boolean ellipsoid, int sizeX, int sizeY, int sizeZ, double radiusX,
            double radiusY, double radiusZ, String border, double cval, String backend,
            int device);

    static native RunInfo median3dU16(short[] src, short[] dst, int width, int height,
            int planes, boolean ellipsoid, int sizeX, int sizeY, int sizeZ, double radiusX,
            double radiusY, double radiusZ, String border, double cval, String backend,
            int device);

    static native RunInfo median3dF32(float[] src, float[] dst, int width, int height,
            int planes, boolean ellipsoid, int sizeX, int sizeY, int sizeZ, double radiusX,
            double radiusY, double radiusZ, String border, double cval, String backend,
            int device);

    static native RunInfo temporalU8(byte[] src, byte[] dst, int width, int height, int planes,
            int window, String mode, double offset, String backend, int device);

    static native RunInfo temporalU16(short[] src, short[] dst, int width, int height,
            int planes, int window, String mode, double offset, String backend, int device);

    static native RunInfo temporalF32(float[] src, float[] dst, int width, int height,
            int planes, int window, String mode, double offset, String backend, int device);

    // A TemporalMedianStream lives behind a handle from temporalStreamCreate until
    // temporalStreamClose; the Java class never passes a closed handle.
    static native long temporalStreamCreate(int bitDepth, int width, int height, int window,
            String mode, double offset, String backend, int device);

    static native void temporalStreamPushU8(long handle, byte[] frame, byte[] out);

    static native void temporalStreamPushU16(long handle, short[] frame, short[] out);

    static native void temporalStreamPushF32(long handle, float[] frame, float[] out);

    static native long temporalStreamFramesPushed(long handle);

    static native RunInfo temporalStreamRunInfo(long handle);

    static native void temporalStreamClose(long handle);

    // The background: the window as median's three fields; method and output by their names.
    static native RunInfo backgroundU8(byte[] src, byte[] dst, int width, int height,
            int planes, boolean circle, int size, double radius, String method, String output,
            double offset, String border, double cval, String backend, int[] devices);

    static native RunInfo backgroundU16(short[] src, short[] dst, int width, int height,
            int planes, boolean circle, int size, double radius, String method, String output,
            double offset, String border, double cval, String backend, int[] devices);

    static native RunInfo backgroundF32(float[] src, float[] dst, int width, int height,
            int planes, boolean circle, int size, double radius, String method, String output,
            double offset, String border, double cval, String backend, int[] devices);

    // Convolution: dst is an array of the source's type (output in that type) or a float[]
    // (float output). kind: 0 generic mask (mask, maskWidth, maskHeight), 1 separable
    // (rowMask, columnMask), 2 Gaussian (sigma); the other mask fields are unused.
    static native RunInfo convolveU8(byte[] src, Object dst, int width, int height, int planes,
            int kind, float[] mask, int maskWidth, int maskHeight, float[] rowMask,
            float[] columnMask, double sigma, boolean normalize, String border, double cval,
            String backend, int[] devices);

    static native RunInfo convolveU16(short[] src, Object dst, int width, int height, int planes,
            int kind, float[] mask, int maskWidth, int maskHeight, float[] rowMask,
            float[] columnMask, double sigma, boolean normalize, String border, double cval,
            String backend, int[] devices);

    static native RunInfo convolveF32(float[] src, float[] dst, int width, int height,
            int planes, int kind, float[] mask, int maskWidth, int maskHeight, float[] rowMask,
            float[] columnMask, double sigma, boolean normalize, String border, double cval,
            String backend, int[] devices);

    static native float[] gaussianMask(double sigma);

    static native String version();

    static native boolean cudaCompiled();

    static native DeviceInfo[] cudaDevices();

    static native String cudaUnavailableReason();
}
