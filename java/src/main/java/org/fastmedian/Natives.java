package org.fastmedian;

// The JNI entry points (native/jni/fastmedian_jni.cpp). Callers load the library first; see
// NativeLibrary. Enums travel as their library names, the window as its three fields.
final class Natives {
    private Natives() {}

    static native RunInfo medianU8(byte[] src, byte[] dst, int width, int height, int planes,
            boolean circle, int size, double radius, String border, double cval, String backend,
            int device);

    static native RunInfo medianU16(short[] src, short[] dst, int width, int height, int planes,
            boolean circle, int size, double radius, String border, double cval, String backend,
            int device);

    static native RunInfo medianF32(float[] src, float[] dst, int width, int height, int planes,
            boolean circle, int size, double radius, String border, double cval, String backend,
            int device);

    static native String version();

    static native boolean cudaCompiled();

    static native DeviceInfo[] cudaDevices();

    static native String cudaUnavailableReason();
}
