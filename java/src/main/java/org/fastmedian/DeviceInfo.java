package org.fastmedian;

/** One CUDA device this machine offers. */
public final class DeviceInfo {
    private final int index;
    private final String name;
    private final int computeMajor;
    private final int computeMinor;
    private final long memoryBytes;

    // Built by the JNI bridge.
    DeviceInfo(int index, String name, int computeMajor, int computeMinor, long memoryBytes) {
        this.index = index;
        this.name = name;
        this.computeMajor = computeMajor;
        this.computeMinor = computeMinor;
        this.memoryBytes = memoryBytes;
    }

    public int index() {
        return index;
    }

    public String name() {
        return name;
    }

    public int computeMajor() {
        return computeMajor;
    }

    public int computeMinor() {
        return computeMinor;
    }

    public long memoryBytes() {
        return memoryBytes;
    }

    @Override
    public String toString() {
        return "cuda:" + index + " " + name + " (sm_" + computeMajor + computeMinor + ", "
                + (memoryBytes >> 20) + " MiB)";
    }
}
